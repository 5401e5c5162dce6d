//===- Protocol.cpp - the requests executor-lsp-server adds -----*- C++ -*-===//
#include "ExecutorLsp/Protocol.h"

#include "llvm/Support/FormatVariadic.h"

using namespace executor_studio::lsp;
namespace proto = llvm::lsp;
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
  const json::Value *ir = value.getAsObject()->get("ir");
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
        path.field("ir").report("expected snapshot indices (-1: the input)");
        return false;
      }
      list += std::to_string(*number) + ",";
    }
    result.ir = list.empty() ? "none" : list;
    return true;
  }
  path.field("ir").report(
      "expected \"changes\", \"none\" or an array of snapshot indices");
  return false;
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

bool executor_studio::lsp::fromJSON(const json::Value &value,
                                    CancelParams &result, json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o)
    return false;
  const json::Object *object = value.getAsObject();
  const json::Value *id = object->get("id");
  if (!id || (id->kind() != json::Value::String &&
              id->kind() != json::Value::Number)) {
    path.field("id").report("expected a string or a number");
    return false;
  }
  result.id = *id;
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
