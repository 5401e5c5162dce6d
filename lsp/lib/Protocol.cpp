//===- Protocol.cpp - the requests executor-lsp-server adds -----*- C++ -*-===//
#include "ExecutorLsp/Protocol.h"

#include "llvm/Support/FormatVariadic.h"

using namespace executor_studio::lsp;
namespace json = llvm::json;
using llvm::StringRef;

bool executor_studio::lsp::fromJSON(const json::Value &value, RawParams &result,
                                    json::Path) {
  result.value = value;
  return true;
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    PipelinePreviewParams &result,
                                    json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o || !o.map("uri", result.uri) ||
      !o.mapOptional("pipeline", result.pipeline) ||
      !o.mapOptional("chunk", result.chunk))
    return false;
  const json::Object *object = value.getAsObject();
  StringRef field = object->get("withText") ? "withText" : "ir";
  const json::Value *ir = object->get(field);
  if (!ir)
    return true;
  if (std::optional<StringRef> mode = ir->getAsString()) {
    if (*mode == "changes" || *mode == "none") {
      result.ir = mode->str();
      return true;
    }
  } else if (const json::Array *indices = ir->getAsArray()) {
    std::string list;
    for (const json::Value &index : *indices) {
      std::optional<int64_t> number = index.getAsInteger();
      if (!number || *number < -1 || *number > INT32_MAX) {
        path.field(field).report("expected snapshot indices (-1: the input)");
        return false;
      }
      list += std::to_string(*number) + ",";
    }
    result.ir = list.empty() ? "none" : list;
    return true;
  }
  path.field(field).report(
      "expected \"changes\", \"none\" or an array of snapshot indices");
  return false;
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    StepTextParams &result, json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o || !o.map("recording", result.recording) ||
      !o.map("step", result.step) || !o.mapOptional("nested", result.nested))
    return false;
  if (result.recording.empty()) {
    path.field("recording").report("expected the id of a preview's recording");
    return false;
  }
  if (result.step < -1 || result.step > INT32_MAX) {
    path.field("step").report("expected a snapshot index (-1: the input)");
    return false;
  }
  if (result.nested && (*result.nested < 0 || *result.nested > INT32_MAX)) {
    path.field("nested").report("expected a position in the step's \"nested\"");
    return false;
  }
  if (result.nested && result.step < 0) {
    path.field("nested").report("the input has no nested steps");
    return false;
  }
  return true;
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    RerunFromParams &result, json::Path path) {
  if (!fromJSON(value, result.preview, path))
    return false;
  json::ObjectMapper o(value, path);
  if (!o.map("text", result.text) || !o.mapOptional("textUri", result.textUri))
    return false;
  const json::Value *pass = value.getAsObject()->get("pass");
  std::optional<int64_t> number = pass ? pass->getAsInteger() : std::nullopt;
  if (!number || *number < -1 || *number > INT32_MAX) {
    path.field("pass").report(
        "expected the index of the snapshot that `text` replaces (-1: the "
        "input)");
    return false;
  }
  result.pass = *number;
  return true;
}

namespace {
/// A snapshot reference: an index (-1: the input) or a name.
bool snapshotRef(const json::Value *value, std::string &result,
                 json::Path path) {
  if (!value)
    return false;
  if (std::optional<int64_t> number = value->getAsInteger()) {
    if (*number < -1 || *number > INT32_MAX) {
      path.report("expected a snapshot index (-1: the input) or a name");
      return false;
    }
    result = std::to_string(*number);
    return true;
  }
  if (std::optional<StringRef> name = value->getAsString()) {
    if (name->empty()) {
      path.report("expected a snapshot index (-1: the input) or a name");
      return false;
    }
    result = name->str();
    return true;
  }
  path.report("expected a snapshot index (-1: the input) or a name");
  return false;
}
} // namespace

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    OpHistoryParams &result, json::Path path) {
  if (!fromJSON(value, result.preview, path))
    return false;
  json::ObjectMapper o(value, path);
  if (!o.mapOptional("position", result.position) ||
      !o.mapOptional("line", result.line))
    return false;
  const json::Object *object = value.getAsObject();
  if (const json::Value *snapshot = object->get("snapshot")) {
    std::string ref;
    if (!snapshotRef(snapshot, ref, path.field("snapshot")))
      return false;
    result.snapshot = ref;
  }
  if (std::optional<bool> ir = object->getBoolean("withIR"))
    result.ir = *ir;
  if (std::optional<bool> preview = object->getBoolean("previewLine"))
    result.previewLine = *preview;
  if (result.position.has_value() == result.snapshot.has_value()) {
    path.report("expected either a position in the document or a snapshot "
                "and a line");
    return false;
  }
  if (result.snapshot && (!result.line || *result.line < 0)) {
    path.field("line").report("expected the 0-based line of the op in the "
                              "snapshot");
    return false;
  }
  return true;
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    AlignedSnapshotsParams &result,
                                    json::Path path) {
  if (!fromJSON(value, result.preview, path))
    return false;
  const json::Object *object = value.getAsObject();
  if (!snapshotRef(object->get("left"), result.left, path.field("left")) ||
      !snapshotRef(object->get("right"), result.right, path.field("right"))) {
    if (!object->get("left"))
      path.field("left").report("expected a snapshot index (-1: the input) or a name");
    else if (!object->get("right"))
      path.field("right").report("expected a snapshot index (-1: the input) or a name");
    return false;
  }
  if (std::optional<bool> lineDiff = object->getBoolean("lineDiff"))
    result.lineDiff = *lineDiff;
  return true;
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    SourceLinesParams &result,
                                    json::Path path) {
  if (!fromJSON(value, result.preview, path))
    return false;
  const json::Object *object = value.getAsObject();
  if (!snapshotRef(object->get("snapshot"), result.snapshot,
                   path.field("snapshot"))) {
    if (!object->get("snapshot"))
      path.field("snapshot").report(
          "expected a snapshot index (-1: the input) or a name");
    return false;
  }
  return true;
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    GraphParams &result, json::Path path) {
  if (!fromJSON(value, result.preview, path))
    return false;
  const json::Object *object = value.getAsObject();
  if (!snapshotRef(object->get("step"), result.step, path.field("step"))) {
    if (!object->get("step"))
      path.field("step").report("expected a step index (-1: the input) or a name");
    return false;
  }
  json::ObjectMapper o(value, path);
  if (!o.mapOptional("function", result.function) || !o.mapOptional("line", result.line))
    return false;
  if (!result.function && !result.line) {
    path.report("expected a function (its name) or a line of the document (the "
                "function there)");
    return false;
  }
  if (result.line && *result.line < 0) {
    path.field("line").report("expected a 0-based line of the document");
    return false;
  }
  return true;
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    RenameParams &result, json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("textDocument", result.textDocument) &&
         o.map("position", result.position) && o.map("newName", result.newName);
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    DocumentParams &result, json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("textDocument", result.textDocument);
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    DocumentRangeParams &result,
                                    json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("textDocument", result.textDocument) &&
         o.map("range", result.range);
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    FormattingParams &result, json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o || !o.map("textDocument", result.textDocument))
    return false;
  if (const json::Object *options = value.getAsObject()->getObject("options"))
    result.dropComments = options->getBoolean("dropComments");
  return true;
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    ConvertBytecodeParams &result,
                                    json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("uri", result.uri);
}

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    LaunchParams &result, json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o || !o.map("uri", result.uri) || !o.map("kernel", result.kernel) ||
      !o.mapOptional("address", result.address))
    return false;
  if (const json::Value *inputs = value.getAsObject()->get("inputs")) {
    if (!inputs->getAsArray()) {
      path.field("inputs").report("expected an array, one value per argument");
      return false;
    }
    result.inputs = *inputs->getAsArray();
  }
  return true;
}

llvm::Error executor_studio::lsp::makeError(proto::ErrorCode code,
                                            const llvm::Twine &message) {
  return llvm::make_error<proto::LSPError>(message.str(), code);
}

std::string executor_studio::lsp::getRequestKey(const json::Value &id) {
  return llvm::formatv("{0}", id).str();
}
