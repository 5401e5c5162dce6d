//===- RecordingWorker.cpp - a recording made in a child process ----------===//
#include "ExecutorStudio/Pipeline/RecordingWorker.h"

#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <list>
#include <mutex>
#include <thread>
#include <unordered_map>

using namespace executor_studio;
namespace json = llvm::json;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {
constexpr const char *kSeverityNames[] = {"error", "warning", "remark", "note"};
constexpr const char *kKindNames[] = {"mlir", "llvm", "asm"};

template <typename Enum, size_t N>
bool enumFromJSON(const json::Value &value, Enum &result,
                  const char *const (&names)[N], json::Path path) {
  std::optional<StringRef> text = value.getAsString();
  if (text)
    for (size_t i = 0; i < N; ++i)
      if (*text == names[i]) {
        result = static_cast<Enum>(i);
        return true;
      }
  path.report("not one of the names expected");
  return false;
}

/// Where texts go out of band: their bytes one after the other in `os`,
/// each text's place in the JSON ("irAt", "irBytes"), so that neither side
/// escapes or parses megabytes of JSON strings.
struct OutOfBand {
  llvm::raw_ostream &os;
  uint64_t offset = 0;
};

/// Writes text `text` as member `key` of `object`: in the JSON, or out of
/// band (`keyAt`, `keyBytes`).
void writeText(json::Object &object, StringRef key, const std::string &text,
               OutOfBand *outOfBand) {
  if (!outOfBand) {
    object[key] = text;
    return;
  }
  object[(key + "At").str()] = static_cast<int64_t>(outOfBand->offset);
  object[(key + "Bytes").str()] = static_cast<int64_t>(text.size());
  outOfBand->os << text;
  outOfBand->offset += text.size();
}

/// The texts a worker wrote out of band, kept in a file of their own in the
/// temporary directory (moved out of the worker's, which goes with it) until
/// the last text of the recording that reads from it goes (the recording
/// replaced and out of the recording cache, the process ending). A text is
/// read from its place, checked against the file's size, the first time it
/// is asked for. (Not kept open: a cache of many recordings would hold as
/// many descriptors.)
class KeptTexts {
public:
  static llvm::Expected<std::shared_ptr<const KeptTexts>> keep(StringRef path) {
    llvm::SmallString<128> keptPath;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "executor-texts", "txt", keptPath))
      return llvm::createStringError(
          "cannot keep the recording's texts in the temporary directory: " +
          ec.message());
    auto kept = std::shared_ptr<KeptTexts>(new KeptTexts(keptPath.str().str()));
    if (std::error_code ec = llvm::sys::fs::rename(path, keptPath))
      return llvm::createStringError("cannot keep the recording's texts " +
                                     path.str() + ": " + ec.message());
    if (std::error_code ec = llvm::sys::fs::file_size(keptPath, kept->bytes))
      return llvm::createStringError("cannot read the size of the recording's texts " +
                                     kept->path + ": " + ec.message());
    return kept;
  }
  ~KeptTexts() { llvm::sys::fs::remove(path); }

  uint64_t size() const { return bytes; }

  /// Bytes [at, at + count) (checked against the size when the recording
  /// was read, and against the file's now); a text saying why when they
  /// cannot be read.
  std::string read(uint64_t at, uint64_t count) const {
    auto failed = [&](const std::string &why) {
      return "// cannot read this step's text from " + path + ": " + why + "\n";
    };
    llvm::Expected<llvm::sys::fs::file_t> file =
        llvm::sys::fs::openNativeFileForRead(path);
    if (!file)
      return failed(llvm::toString(file.takeError()));
    std::string text(count, '\0');
    uint64_t done = 0;
    std::string error;
    while (done < count && error.empty()) {
      llvm::Expected<size_t> got = llvm::sys::fs::readNativeFileSlice(
          *file, llvm::MutableArrayRef<char>(text.data() + done, count - done),
          at + done);
      if (!got)
        error = llvm::toString(got.takeError());
      else if (*got == 0)
        error = "the file ends before it";
      else
        done += *got;
    }
    llvm::sys::fs::closeFile(*file);
    return error.empty() ? text : failed(error);
  }

private:
  explicit KeptTexts(std::string path) : path(std::move(path)) {}
  std::string path;
  uint64_t bytes = 0;
};

/// Where out-of-band texts are: bytes in memory, or a kept file whose texts
/// are read when asked for.
struct TextSource {
  std::optional<StringRef> bytes;
  std::shared_ptr<const KeptTexts> kept;

  explicit operator bool() const { return bytes || kept; }
  uint64_t size() const { return kept ? kept->size() : bytes->size(); }
  /// Bytes [at, at + count), within size().
  IRText text(uint64_t at, uint64_t count) const {
    if (!kept)
      return IRText(std::make_shared<const std::string>(bytes->substr(at, count).str()));
    return IRText::deferred(
        [kept = kept, at, count] { return kept->read(at, count); });
  }
};

/// Reads what writeText wrote as `key` into `text` (unchanged when there is
/// none): from `texts` (the bytes out of band) when the JSON says where,
/// checked against their size.
bool readText(const json::Object &object, llvm::StringLiteral key,
              llvm::StringLiteral atKey, llvm::StringLiteral bytesKey,
              IRText &text, const TextSource &texts, json::Path path) {
  if (const json::Value *inline_ = object.get(key)) {
    std::optional<StringRef> string = inline_->getAsString();
    if (!string) {
      path.field(key).report("expected a string");
      return false;
    }
    text = IRText(std::make_shared<const std::string>(string->str()));
    return true;
  }
  const json::Value *atValue = object.get(atKey);
  if (!atValue)
    return true;
  std::optional<int64_t> at = atValue->getAsInteger();
  std::optional<int64_t> bytes = object.getInteger(bytesKey);
  if (!at || *at < 0) {
    path.field(atKey).report("expected an offset");
    return false;
  }
  if (!bytes || *bytes < 0) {
    path.field(bytesKey).report("expected a size");
    return false;
  }
  if (!texts) {
    path.field(atKey).report("a text out of band, but no texts were sent");
    return false;
  }
  if (uint64_t(*at) > texts.size() ||
      uint64_t(*bytes) > texts.size() - uint64_t(*at)) {
    path.field(bytesKey).report("past the end of the texts");
    return false;
  }
  text = texts.text(uint64_t(*at), uint64_t(*bytes));
  return true;
}

/// Writes the IR of a list of snapshots: "ir" where it is sent and differs
/// from the one before, "sameIR" where it is the one before's (sent).
struct TextWriter {
  explicit TextWriter(OutOfBand *outOfBand = nullptr) : outOfBand(outOfBand) {}

  IRText previous;
  bool previousSent = false;
  OutOfBand *outOfBand;

  void write(json::Object &object, const IRText &ir, bool send) {
    if (!ir || !send) {
      previous = ir;
      previousSent = false;
      return;
    }
    if (previousSent && ir.sameAs(previous))
      object["sameIR"] = true;
    else
      writeText(object, "ir", *ir, outOfBand);
    previous = ir;
    previousSent = true;
  }
};

/// Reads what TextWriter wrote.
struct TextReader {
  explicit TextReader(TextSource texts) : texts(std::move(texts)) {}

  IRText previous;
  TextSource texts;

  bool read(const json::Object &object, IRText &ir, json::Path path) {
    if (std::optional<bool> same = object.getBoolean("sameIR"); same && *same) {
      if (!previous) {
        path.field("sameIR").report("no text before it to share");
        return false;
      }
      ir = previous;
    } else {
      ir = nullptr;
      if (!readText(object, "ir", "irAt", "irBytes", ir, texts, path))
        return false;
    }
    previous = ir;
    return true;
  }
};

json::Value recordingToJSON(const Recording &recording,
                            const std::optional<std::vector<int>> &irSnapshots,
                            OutOfBand *outOfBand);
bool recordingFromJSON(const json::Value &value, Recording &recording,
                       json::Path path, const TextSource &outOfBand);

/// A snapshot as the worker writes it: every field, its text as `texts`
/// shares it, its nested steps.
json::Value workerSnapshotToJSON(const Snapshot &snapshot, TextWriter &texts,
                                 bool send) {
  json::Object object = snapshotToJSON(
      snapshot, SnapshotField::All,
      [](const RecordedDiagnostic &diag) { return toJSON(diag); });
  texts.write(object, snapshot.ir, send);
  if (!snapshot.nested.empty()) {
    TextWriter nestedTexts(texts.outOfBand);
    json::Array nested;
    const Snapshot *before = nullptr;
    for (const Snapshot &step : snapshot.nested) {
      // Each target's steps share texts within the target only.
      if (before && before->target != step.target)
        nestedTexts = TextWriter(texts.outOfBand);
      nested.push_back(workerSnapshotToJSON(step, nestedTexts, send));
      before = &step;
    }
    object["nested"] = std::move(nested);
  }
  return object;
}

bool snapshotFromJSON(const json::Value &value, Snapshot &snapshot,
                      TextReader &texts, json::Path path) {
  json::ObjectMapper o(value, path);
  int64_t index = 0;
  if (!o || !o.map("index", index) || !o.map("pass", snapshot.pass) ||
      !o.map("options", snapshot.options) || !o.map("anchor", snapshot.anchor) ||
      !o.map("changed", snapshot.changed) || !o.map("failed", snapshot.failed) ||
      !o.map("edited", snapshot.edited) ||
      !o.map("milliseconds", snapshot.milliseconds) ||
      !o.map("target", snapshot.target) ||
      !o.map("diagnostics", snapshot.diagnostics))
    return false;
  if (index < 0 || index > (int64_t(1) << 30)) {
    path.field("index").report("out of range");
    return false;
  }
  snapshot.index = static_cast<unsigned>(index);
  const json::Object *object = value.getAsObject();
  const json::Value *kind = object->get("kind");
  if (!kind || !enumFromJSON(*kind, snapshot.kind, kKindNames, path.field("kind")))
    return false;
  if (!texts.read(*object, snapshot.ir, path))
    return false;
  if (const json::Value *nested = object->get("nested")) {
    const json::Array *steps = nested->getAsArray();
    if (!steps) {
      path.field("nested").report("expected an array");
      return false;
    }
    TextReader nestedTexts(texts.texts);
    for (auto [i, step] : llvm::enumerate(*steps)) {
      Snapshot &added = snapshot.nested.emplace_back();
      if (!snapshotFromJSON(step, added, nestedTexts, path.field("nested").index(i)))
        return false;
      if (i > 0 && snapshot.nested[i - 1].target != added.target) {
        // A new target: its first step shares nothing (as written).
        if (std::optional<bool> same = step.getAsObject()->getBoolean("sameIR");
            same && *same) {
          path.field("nested").index(i).report("shares a text across targets");
          return false;
        }
      }
    }
  }
  return true;
}
} // namespace

json::Object executor_studio::snapshotToJSON(
    const Snapshot &snapshot, SnapshotField fields,
    llvm::function_ref<json::Value(const RecordedDiagnostic &)> diagnostic) {
  json::Object object{
      {"pass", snapshot.pass},
      {"anchor", snapshot.anchor},
      {"changed", snapshot.changed},
      {"failed", snapshot.failed},
      {"milliseconds", snapshot.milliseconds},
  };
  auto has = [&](SnapshotField field) {
    return (fields & field) != SnapshotField::None;
  };
  if (has(SnapshotField::Index))
    object["index"] = static_cast<int64_t>(snapshot.index);
  if (has(SnapshotField::Options))
    object["options"] = snapshot.options;
  if (has(SnapshotField::Edited))
    object["edited"] = snapshot.edited;
  if (has(SnapshotField::Kind))
    object["kind"] = snapshotKindName(snapshot.kind);
  if (has(SnapshotField::Target))
    object["target"] = snapshot.target;
  json::Array diagnostics;
  for (const RecordedDiagnostic &diag : snapshot.diagnostics)
    diagnostics.push_back(diagnostic(diag));
  object["diagnostics"] = std::move(diagnostics);
  return object;
}

json::Value executor_studio::toJSON(const RecordedDiagnostic &diag) {
  json::Object object{
      {"severity", kSeverityNames[static_cast<int>(diag.severity)]},
      {"message", diag.message},
      {"file", diag.file},
      {"line", static_cast<int64_t>(diag.line)},
      {"column", static_cast<int64_t>(diag.column)},
      {"pass", diag.pass},
  };
  if (!diag.notes.empty()) {
    json::Array notes;
    for (const RecordedDiagnostic &note : diag.notes)
      notes.push_back(toJSON(note));
    object["notes"] = std::move(notes);
  }
  return object;
}

bool executor_studio::fromJSON(const json::Value &value,
                               RecordedDiagnostic &diag, json::Path path) {
  json::ObjectMapper o(value, path);
  int64_t line = 0, column = 0;
  if (!o || !o.map("message", diag.message) || !o.map("file", diag.file) ||
      !o.map("line", line) || !o.map("column", column) ||
      !o.map("pass", diag.pass) || !o.mapOptional("notes", diag.notes))
    return false;
  if (line < 0 || column < 0 || line > UINT32_MAX || column > UINT32_MAX) {
    path.report("line or column out of range");
    return false;
  }
  diag.line = static_cast<unsigned>(line);
  diag.column = static_cast<unsigned>(column);
  const json::Value *severity = value.getAsObject()->get("severity");
  return severity && enumFromJSON(*severity, diag.severity, kSeverityNames,
                                  path.field("severity"));
}

json::Value executor_studio::toJSON(const RecordOptions &options) {
  return json::Object{
      {"pipeline", options.pipeline},
      {"recordIR", options.recordIR},
      {"deferText", options.deferText},
      {"printGenericForm", options.printGenericForm},
      {"printDebugInfo", options.printDebugInfo},
      {"allowUnregisteredDialects", options.allowUnregisteredDialects},
      {"keepArgumentNames", options.keepArgumentNames},
      {"recordNested", options.recordNested},
  };
}

bool executor_studio::fromJSON(const json::Value &value, RecordOptions &options,
                               json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("pipeline", options.pipeline) &&
         o.map("recordIR", options.recordIR) &&
         o.map("deferText", options.deferText) &&
         o.map("printGenericForm", options.printGenericForm) &&
         o.map("printDebugInfo", options.printDebugInfo) &&
         o.map("allowUnregisteredDialects", options.allowUnregisteredDialects) &&
         o.map("keepArgumentNames", options.keepArgumentNames) &&
         o.map("recordNested", options.recordNested);
}

json::Value executor_studio::toJSON(const RecordRequest &request) {
  json::Object object{{"text", request.text},
                      {"bufferName", request.bufferName},
                      {"options", toJSON(request.options)}};
  if (request.rerunAfter)
    object["rerunAfter"] = *request.rerunAfter;
  if (request.irSnapshots)
    object["irSnapshots"] = *request.irSnapshots;
  if (request.alignWith)
    object["alignWith"] = *request.alignWith;
  return object;
}

bool executor_studio::fromJSON(const json::Value &value, RecordRequest &request,
                               json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("text", request.text) &&
         o.map("bufferName", request.bufferName) &&
         o.map("options", request.options) &&
         o.mapOptional("rerunAfter", request.rerunAfter) &&
         o.mapOptional("irSnapshots", request.irSnapshots) &&
         o.mapOptional("alignWith", request.alignWith);
}

json::Value executor_studio::toJSON(const AlignedSnapshots &aligned) {
  return json::Object{{"left", aligned.left},
                      {"right", aligned.right},
                      {"leftOps", static_cast<int64_t>(aligned.leftOps)},
                      {"rightOps", static_cast<int64_t>(aligned.rightOps)},
                      {"matchedOps", static_cast<int64_t>(aligned.matchedOps)},
                      {"renamed", static_cast<int64_t>(aligned.renamed)},
                      {"moved", static_cast<int64_t>(aligned.moved)}};
}

bool executor_studio::fromJSON(const json::Value &value,
                               AlignedSnapshots &aligned, json::Path path) {
  json::ObjectMapper o(value, path);
  int64_t leftOps = 0, rightOps = 0, matchedOps = 0, renamed = 0, moved = 0;
  if (!(o && o.map("left", aligned.left) && o.map("right", aligned.right) &&
        o.map("leftOps", leftOps) && o.map("rightOps", rightOps) &&
        o.map("matchedOps", matchedOps) && o.map("renamed", renamed) &&
        o.mapOptional("moved", moved)))
    return false;
  for (int64_t count : {leftOps, rightOps, matchedOps, renamed, moved})
    if (count < 0) {
      path.report("a count is negative");
      return false;
    }
  aligned.leftOps = leftOps;
  aligned.rightOps = rightOps;
  aligned.matchedOps = matchedOps;
  aligned.renamed = renamed;
  aligned.moved = moved;
  return true;
}

json::Value executor_studio::toJSON(const Recording &recording) {
  return toJSON(recording, std::nullopt);
}

json::Value
executor_studio::toJSON(const Recording &recording,
                        const std::optional<std::vector<int>> &irSnapshots) {
  return recordingToJSON(recording, irSnapshots, nullptr);
}

json::Value
executor_studio::toJSON(const Recording &recording,
                        const std::optional<std::vector<int>> &irSnapshots,
                        llvm::raw_ostream &texts) {
  OutOfBand outOfBand{texts};
  return recordingToJSON(recording, irSnapshots, &outOfBand);
}

bool executor_studio::fromJSON(const json::Value &value, Recording &recording,
                               json::Path path) {
  return recordingFromJSON(value, recording, path, TextSource());
}

bool executor_studio::fromJSON(const json::Value &value, Recording &recording,
                               json::Path path, StringRef texts) {
  return recordingFromJSON(value, recording, path, TextSource{texts, nullptr});
}

namespace {
json::Value recordingToJSON(const Recording &recording,
                            const std::optional<std::vector<int>> &irSnapshots,
                            OutOfBand *outOfBand) {
  auto send = [&](int snapshot) {
    return !irSnapshots || llvm::is_contained(*irSnapshots, snapshot);
  };
  json::Object object{
      {"succeeded", recording.succeeded},
      {"totalMilliseconds", recording.totalMilliseconds},
      {"firstStep", static_cast<int64_t>(recording.firstStep)},
  };
  TextWriter texts(outOfBand);
  texts.write(object, recording.inputIR, send(-1));
  json::Array diagnostics;
  for (const RecordedDiagnostic &diag : recording.diagnostics)
    diagnostics.push_back(toJSON(diag));
  object["diagnostics"] = std::move(diagnostics);
  json::Array snapshots;
  for (const Snapshot &snapshot : recording.snapshots)
    snapshots.push_back(
        workerSnapshotToJSON(snapshot, texts, send(static_cast<int>(snapshot.index))));
  object["snapshots"] = std::move(snapshots);
  // The output: the last snapshot's text (or the input's) when it is that,
  // else its own when every text is sent.
  if (recording.outputIR) {
    if (texts.previousSent && recording.outputIR.sameAs(texts.previous))
      object["output"] = "last";
    else if (!irSnapshots)
      writeText(object, "outputIR", *recording.outputIR, outOfBand);
  }
  return object;
}

bool recordingFromJSON(const json::Value &value, Recording &recording,
                       json::Path path, const TextSource &outOfBand) {
  json::ObjectMapper o(value, path);
  int64_t firstStep = 0;
  if (!o || !o.map("succeeded", recording.succeeded) ||
      !o.map("totalMilliseconds", recording.totalMilliseconds) ||
      !o.map("firstStep", firstStep) ||
      !o.map("diagnostics", recording.diagnostics))
    return false;
  if (firstStep < 0 || firstStep > (int64_t(1) << 30)) {
    path.field("firstStep").report("out of range");
    return false;
  }
  recording.firstStep = static_cast<unsigned>(firstStep);
  const json::Object *object = value.getAsObject();
  TextReader texts(outOfBand);
  if (!texts.read(*object, recording.inputIR, path))
    return false;
  const json::Array *snapshots = object->getArray("snapshots");
  if (!snapshots) {
    path.field("snapshots").report("expected an array");
    return false;
  }
  recording.snapshots.reserve(snapshots->size());
  for (auto [i, snapshot] : llvm::enumerate(*snapshots))
    if (!snapshotFromJSON(snapshot, recording.snapshots.emplace_back(), texts,
                          path.field("snapshots").index(i)))
      return false;
  if (std::optional<StringRef> output = object->getString("output");
      output && *output == "last") {
    recording.outputIR = texts.previous;
  } else if (!readText(*object, "outputIR", "outputIRAt", "outputIRBytes",
                       recording.outputIR, outOfBand, path)) {
    return false;
  }
  return true;
}
} // namespace

std::string executor_studio::getWorkerTextsPath(StringRef resultPath) {
  return (resultPath + ".texts").str();
}

//===----------------------------------------------------------------------===//
// The worker process
//===----------------------------------------------------------------------===//

namespace {
/// The worker's files, in a temporary directory removed with it.
struct WorkerFiles {
  llvm::SmallString<128> dir;
  std::string request, result, errors;

  ~WorkerFiles() {
    if (!dir.empty())
      llvm::sys::fs::remove_directories(dir, /*IgnoreErrors=*/true);
  }

  llvm::Error create(const RecordRequest &recordRequest) {
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("executor-record", dir)) {
      dir.clear();
      return llvm::createStringError("cannot create a temporary directory: " +
                                     ec.message());
    }
    auto path = [&](StringRef name) {
      llvm::SmallString<128> result(dir);
      llvm::sys::path::append(result, name);
      return std::string(result);
    };
    request = path("request.json");
    result = path("result.json");
    errors = path("stderr.txt");
    std::error_code ec;
    llvm::raw_fd_ostream os(request, ec);
    if (!ec) {
      os << toJSON(recordRequest);
      os.close();
      if (os.has_error())
        ec = os.error();
    }
    if (ec)
      return llvm::createStringError("cannot write " + request + ": " +
                                     ec.message());
    return llvm::Error::success();
  }
};

/// Why the worker failed: its exit and what it said on stderr (without the
/// crash report's boilerplate; its stack trace names the pass when MLIR's
/// crash recovery does).
std::string describeFailure(const Subprocess &process, StringRef errorsPath) {
  std::string message = process.exitDescription();
  if (auto errors = llvm::MemoryBuffer::getFile(errorsPath)) {
    llvm::SmallVector<StringRef> lines;
    (*errors)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
    unsigned kept = 0;
    for (StringRef line : lines) {
      StringRef trimmed = line.trim();
      if (trimmed.starts_with("PLEASE submit") ||
          trimmed.starts_with("Stack dump") || trimmed.starts_with("#") ||
          trimmed.contains("Program arguments:"))
        continue;
      if (++kept > 8)
        break;
      message += "; " + trimmed.str();
    }
  }
  return message;
}

/// The JSON the worker wrote to `path` (its `what`); a file of more than
/// `maxBytes` is refused unread, `tooLarge` saying why.
llvm::Expected<json::Value>
readWorkerJSON(StringRef path, StringRef what, uint64_t maxBytes,
               llvm::function_ref<std::string(uint64_t)> tooLarge) {
  uint64_t size = 0;
  if (!llvm::sys::fs::file_size(path, size) && size > maxBytes)
    return llvm::createStringError(tooLarge(size));
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("the worker wrote no " + what.str());
  llvm::Expected<json::Value> parsed = json::parse((*buffer)->getBuffer());
  if (!parsed)
    return llvm::createStringError("the worker wrote invalid JSON: " +
                                   llvm::toString(parsed.takeError()));
  return parsed;
}

/// The recording the worker wrote, within what a front end should take.
llvm::Expected<Recording> readResult(StringRef path) {
  // Every pass of a huge program can be too much to hold.
  constexpr uint64_t kMaxResultBytes = uint64_t(512) << 20;
  llvm::Expected<json::Value> parsed =
      readWorkerJSON(path, "recording", kMaxResultBytes, [](uint64_t size) {
        return llvm::formatv("the recording is {0} MB, more than a front end "
                             "should take: ask for less IR",
                             size >> 20)
            .str();
      });
  if (!parsed)
    return parsed.takeError();
  // Its texts, out of band (none from a worker that sent them in the JSON),
  // kept and read when a text is asked for.
  std::string textsPath = getWorkerTextsPath(path);
  TextSource texts;
  if (llvm::sys::fs::exists(textsPath)) {
    llvm::Expected<std::shared_ptr<const KeptTexts>> kept = KeptTexts::keep(textsPath);
    if (!kept)
      return kept.takeError();
    if ((*kept)->size() > kMaxResultBytes)
      return llvm::createStringError(
          llvm::formatv("the recording's texts are {0} MB, more than a front "
                        "end should take: ask for less IR",
                        (*kept)->size() >> 20)
              .str());
    texts.kept = std::move(*kept);
  }
  Recording recording;
  json::Path::Root root("recording");
  if (!recordingFromJSON(*parsed, recording, root, texts))
    return llvm::createStringError("the worker wrote an invalid recording: " +
                                   llvm::toString(root.getError()));
  recording.keptTextBytes = texts.kept ? texts.kept->size() : 0;
  return recording;
}
} // namespace

namespace {
/// Runs `workerExecutable --record-worker` on `files` until it ends, is
/// cancelled or times out; Finished means it exited with 0 and its result
/// is in `files.result`.
WorkerRecording runWorker(const WorkerFiles &files, StringRef workerExecutable,
                          std::chrono::milliseconds timeout,
                          llvm::function_ref<bool()> cancelled) {
  WorkerRecording outcome;
  Subprocess process;
  SubprocessOptions options;
  options.out = Redirect::null();
  options.err = Redirect::file(files.errors);
  // Never outlive the front end (it kills the worker on a time-out or a
  // cancellation, but it may itself be killed).
  options.parentDeathSignal = SIGKILL;
  if (llvm::Error error = process.start({workerExecutable.str(), "--record-worker",
                                         files.request, files.result},
                                        options)) {
    outcome.error = llvm::toString(std::move(error));
    return outcome;
  }
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!process.poll()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (cancelled && cancelled()) {
      process.kill();
      outcome.status = WorkerRecording::Status::Cancelled;
      return outcome;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      process.kill();
      outcome.status = WorkerRecording::Status::TimedOut;
      outcome.error = llvm::formatv("timed out after {0} ms", timeout.count()).str();
      return outcome;
    }
  }
  if (process.exitCode() != 0) {
    outcome.error = describeFailure(process, files.errors);
    return outcome;
  }
  outcome.status = WorkerRecording::Status::Finished;
  return outcome;
}
} // namespace

namespace {
/// The recordings the workers finished, by what determines them: the
/// request as the worker reads it (program, buffer name, pipeline and its
/// options, rerun step, texts asked for) and the worker executable (its
/// path, size and modification time: another build records anew). Least
/// recently used out; bounded by the bytes of its texts.
class RecordingCache {
public:
  static RecordingCache &get() {
    static RecordingCache cache;
    return cache;
  }

  static std::string key(const RecordRequest &request,
                         StringRef workerExecutable) {
    std::string key;
    llvm::raw_string_ostream os(key);
    llvm::sys::fs::file_status status;
    os << workerExecutable;
    if (!llvm::sys::fs::status(workerExecutable, status))
      os << " " << status.getSize() << " "
         << status.getLastModificationTime().time_since_epoch().count();
    os << "\n" << toJSON(request);
    return key;
  }

  /// The recording of `key` and its id (idOf).
  std::optional<std::pair<std::shared_ptr<const Recording>, std::string>>
  lookup(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = index.find(key);
    if (it == index.end()) {
      ++stats.misses;
      return std::nullopt;
    }
    ++stats.hits;
    entries.splice(entries.begin(), entries, it->second);
    return std::make_pair(it->second->recording, it->second->id);
  }

  /// The recording whose id is `id`, if it is still kept.
  std::shared_ptr<const Recording> lookupId(StringRef id) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = ids.find(id.str());
    if (it == ids.end())
      return nullptr;
    entries.splice(entries.begin(), entries, it->second);
    return it->second->recording;
  }

  /// The id of the recording of `key`: a hash of it, 16 hex digits.
  static std::string idOf(const std::string &key) {
    return llvm::utohexstr(llvm::xxh3_64bits(key), /*LowerCase=*/true,
                           /*Width=*/16);
  }

  /// Keeps `recording` under `key`; false when it is larger than the limit.
  bool insert(const std::string &key,
              const std::shared_ptr<const Recording> &recording) {
    // Texts read when asked for count as what they can become.
    size_t bytes = key.size() + size(recording->inputIR) +
                   recording->keptTextBytes;
    for (const Snapshot &snapshot : recording->snapshots) {
      bytes += size(snapshot.ir) + snapshot.pass.size() + 256;
      for (const Snapshot &nested : snapshot.nested)
        bytes += size(nested.ir) + nested.pass.size() + 256;
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (bytes > stats.limit)
      return false;
    if (index.count(key))
      return true;
    std::string id = idOf(key);
    if (ids.count(id))
      return false; // (another key with the same hash: not addressable)
    entries.push_front(
        {key, id, recording, bytes});
    index[key] = entries.begin();
    ids[id] = entries.begin();
    stats.bytes += bytes;
    shrink();
    return true;
  }

  void setLimit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    stats.limit = bytes;
    shrink();
  }

  RecordingCacheStatistics statistics() {
    std::lock_guard<std::mutex> lock(mutex);
    RecordingCacheStatistics result = stats;
    result.entries = entries.size();
    return result;
  }

private:
  RecordingCache() {
    stats.limit = size_t(256) << 20;
    if (const char *mb = std::getenv("EXECUTOR_STUDIO_RECORDING_CACHE_MB"))
      stats.limit = size_t(std::strtoull(mb, nullptr, 10)) << 20;
  }
  static size_t size(const IRText &text) {
    // A deferred text is not printed for this: it counts as its copy would.
    return text && text.isMade() ? text->size() : 0;
  }
  void shrink() {
    while (stats.bytes > stats.limit && !entries.empty()) {
      stats.bytes -= entries.back().bytes;
      index.erase(entries.back().key);
      ids.erase(entries.back().id);
      entries.pop_back();
    }
  }
  struct Entry {
    std::string key, id;
    std::shared_ptr<const Recording> recording;
    size_t bytes;
  };
  std::mutex mutex;
  std::list<Entry> entries;
  std::unordered_map<std::string, std::list<Entry>::iterator> index, ids;
  RecordingCacheStatistics stats;
};
} // namespace

RecordingCacheStatistics executor_studio::getRecordingCacheStatistics() {
  return RecordingCache::get().statistics();
}

void executor_studio::setRecordingCacheLimit(size_t bytes) {
  RecordingCache::get().setLimit(bytes);
}

WorkerRecording executor_studio::recordInWorker(
    const RecordRequest &request, StringRef workerExecutable,
    std::chrono::milliseconds timeout, llvm::function_ref<bool()> cancelled) {
  // An unchanged request answers from the cache: the recording the worker
  // sent for it, byte for byte.
  std::string cacheKey = RecordingCache::key(request, workerExecutable);
  if (auto cached = RecordingCache::get().lookup(cacheKey)) {
    WorkerRecording outcome;
    outcome.status = WorkerRecording::Status::Finished;
    outcome.recording = std::move(cached->first);
    outcome.cacheId = std::move(cached->second);
    return outcome;
  }
  WorkerRecording outcome = recordInWorkerUncached(request, workerExecutable,
                                                   timeout, cancelled);
  if (outcome.status == WorkerRecording::Status::Finished &&
      RecordingCache::get().insert(cacheKey, outcome.recording))
    outcome.cacheId = RecordingCache::idOf(cacheKey);
  return outcome;
}

std::shared_ptr<const Recording>
executor_studio::lookupCachedRecording(StringRef id) {
  return RecordingCache::get().lookupId(id);
}

WorkerRecording executor_studio::recordInWorkerUncached(
    const RecordRequest &request, StringRef workerExecutable,
    std::chrono::milliseconds timeout, llvm::function_ref<bool()> cancelled) {
  WorkerRecording outcome;
  WorkerFiles files;
  if (llvm::Error error = files.create(request)) {
    outcome.error = llvm::toString(std::move(error));
    return outcome;
  }
  outcome = runWorker(files, workerExecutable, timeout, cancelled);
  if (outcome.status != WorkerRecording::Status::Finished)
    return outcome;
  llvm::Expected<Recording> recording = readResult(files.result);
  if (!recording) {
    outcome.status = WorkerRecording::Status::Failed;
    outcome.error = llvm::toString(recording.takeError());
    return outcome;
  }
  outcome.recording = std::make_shared<const Recording>(std::move(*recording));
  return outcome;
}

llvm::Expected<AlignedSnapshots>
executor_studio::alignInWorker(StringRef left, StringRef right,
                               StringRef workerExecutable,
                               std::chrono::milliseconds timeout,
                               llvm::function_ref<bool()> cancelled) {
  RecordRequest request;
  request.text = left.str();
  request.bufferName = "left";
  request.alignWith = right.str();
  WorkerFiles files;
  if (llvm::Error error = files.create(request))
    return error;
  WorkerRecording run = runWorker(files, workerExecutable, timeout, cancelled);
  switch (run.status) {
  case WorkerRecording::Status::Cancelled:
    return llvm::createStringError("the alignment was cancelled");
  case WorkerRecording::Status::TimedOut:
  case WorkerRecording::Status::Failed:
    return llvm::createStringError("the worker that aligns the texts failed (" +
                                   run.error + ")");
  case WorkerRecording::Status::Finished:
    break;
  }
  // Both texts, renamed: at most a little more than what was sent.
  uint64_t limit = 2 * (left.size() + right.size()) + (1u << 20);
  llvm::Expected<json::Value> parsed =
      readWorkerJSON(files.result, "alignment", limit, [&](uint64_t size) {
        return llvm::formatv("the worker's alignment is {0} bytes, more than "
                             "the {1} bytes its texts can take",
                             size, limit)
            .str();
      });
  if (!parsed)
    return parsed.takeError();
  const json::Object *object = parsed->getAsObject();
  if (object)
    if (std::optional<StringRef> error = object->getString("error"))
      return llvm::createStringError(*error);
  AlignedSnapshots aligned;
  json::Path::Root root("alignment");
  json::Path path(root);
  if (!object || !object->get("aligned") ||
      !fromJSON(*object->get("aligned"), aligned, path.field("aligned")))
    return llvm::createStringError(
        "the worker wrote an invalid alignment: " +
        (object && object->get("aligned") ? llvm::toString(root.getError())
                                          : std::string("no \"aligned\"")));
  return aligned;
}
