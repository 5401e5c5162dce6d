//===- PipelineResults.cpp - a recording as the preview's JSON ------------===//
#include "ExecutorLsp/PipelineResults.h"

#include "ExecutorLsp/Forward.h"
#include "ExecutorLsp/Protocol.h"
#include "ExecutorLsp/SourceRanges.h"

#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/RecordingWorker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <list>
#include <mutex>

using namespace executor_studio;
using namespace executor_studio::lsp;
namespace json = llvm::json;
using IRMode = PipelineResultOptions::IRMode;

namespace {
/// Converts the recorder's diagnostics to LSP diagnostics of one chunk.
class DiagnosticConverter {
public:
  /// `file` is the buffer name the recorder parsed `text` under.
  DiagnosticConverter(llvm::StringRef text, unsigned lineOffset,
                      const std::string &uri, const std::string &file)
      : lineOffset(lineOffset), uri(uri), file(file) {
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, file),
                                 llvm::SMLoc());
    buffer = text;
  }

  llvm::json::Object convert(const RecordedDiagnostic &diag) {
    llvm::json::Object result{
        {"range", getRange(diag)},
        {"severity", static_cast<int64_t>(getSeverity(diag.severity))},
        {"message", diag.message},
        {"source", diag.pass.empty() ? "mlir" : "executor-pipeline"},
    };
    if (!diag.pass.empty())
      result["pass"] = diag.pass;
    llvm::json::Array related;
    for (const RecordedDiagnostic &note : diag.notes) {
      // The op dump MLIR attaches to pass errors says nothing the range
      // does not.
      if (llvm::StringRef(note.message).starts_with("see current operation"))
        continue;
      related.push_back(llvm::json::Object{
          {"location",
           llvm::json::Object{{"uri", uri}, {"range", getRange(note)}}},
          {"message", note.message}});
    }
    if (!related.empty())
      result["relatedInformation"] = std::move(related);
    return result;
  }

private:
  static proto::DiagnosticSeverity
  getSeverity(RecordedDiagnostic::Severity severity) {
    switch (severity) {
    case RecordedDiagnostic::Severity::Error:
      return proto::DiagnosticSeverity::Error;
    case RecordedDiagnostic::Severity::Warning:
      return proto::DiagnosticSeverity::Warning;
    case RecordedDiagnostic::Severity::Remark:
    case RecordedDiagnostic::Severity::Note:
      return proto::DiagnosticSeverity::Information;
    }
    return proto::DiagnosticSeverity::Error;
  }

  llvm::json::Value getRange(const RecordedDiagnostic &diag) {
    proto::Range range{proto::Position(lineOffset)};
    if (diag.file == file && diag.line > 0) {
      llvm::SMLoc loc = findLocForLineAndColumn(
          sourceMgr, diag.line - 1, diag.column > 0 ? diag.column - 1 : 0);
      if (loc.isValid()) {
        llvm::SMRange token = getTokenRange(buffer, loc);
        range = proto::Range(sourceMgr, token);
        range.start.line += lineOffset;
        range.end.line += lineOffset;
      }
    }
    return llvm::json::Value(range);
  }

  llvm::SourceMgr sourceMgr;
  llvm::StringRef buffer;
  unsigned lineOffset;
  std::string uri;
  std::string file;
};

/// A step's sizes: the bytes and lines of its text (none when it has no
/// text), so that a client shows them without the text.
void addSizes(json::Object &object, const IRText &ir, llvm::StringRef bytes,
              llvm::StringRef lines) {
  if (!ir)
    return;
  object[bytes] = static_cast<int64_t>(ir.size());
  object[lines] = static_cast<int64_t>(ir.lines());
}

/// The steps recorded inside `parent` (each target's own pipeline inside
/// cross-compile-targets): `pass` is the target's and the step's
/// (`compute/convert-func-to-llvm`; its name, as findSnapshot takes it, is
/// the parent's pass before it: a client puts them together), `number` counts
/// within the target from its extracted module (0), as executor-compile
/// names the files in ir/TARGET/. With `withIR`, the text of each step that
/// differs from the one before it in its target.
json::Array nestedToJSON(const Snapshot &parent, DiagnosticConverter &converter,
                         bool withIR) {
  json::Array nested;
  // (Reserved: json::Value's move may throw, so a growing array copies.)
  nested.reserve(parent.nested.size());
  const Snapshot *before = nullptr;
  for (const Snapshot &step : parent.nested) {
    json::Object object =
        snapshotToJSON(step, SnapshotField::Kind | SnapshotField::Target,
                       [&](const RecordedDiagnostic &diag) -> json::Value {
                         return converter.convert(diag);
                       });
    object["number"] = static_cast<int64_t>(step.index);
    bool sameAsBefore =
        before && before->target == step.target && step.ir.sameAs(before->ir);
    if (withIR && step.ir && !sameAsBefore)
      object["ir"] = *step.ir;
    addSizes(object, step.ir, "bytes", "lines");
    nested.push_back(std::move(object));
    before = &step;
  }
  return nested;
}
} // namespace

void executor_studio::lsp::PipelineResultOptions::setIR(llvm::StringRef ir) {
  irSnapshots.clear();
  if (ir == "changes") {
    irMode = IRMode::Changes;
    return;
  }
  if (ir == "none") {
    irMode = IRMode::None;
    return;
  }
  irMode = IRMode::Selected;
  llvm::SmallVector<llvm::StringRef> indices;
  ir.split(indices, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef index : indices) {
    int value = 0;
    if (!index.trim().getAsInteger(10, value))
      irSnapshots.push_back(value);
  }
}

json::Object executor_studio::lsp::chunkResultToJSON(
    const Recording &recording, llvm::StringRef text, unsigned lineOffset,
    unsigned index, const PipelineResultOptions &options) {
  auto selected = [&](int snapshot) {
    return options.irMode == IRMode::Selected &&
           llvm::is_contained(options.irSnapshots, snapshot);
  };
  DiagnosticConverter converter(text, lineOffset, options.uri,
                                options.bufferName);
  auto convertAll = [&](const std::vector<RecordedDiagnostic> &list) {
    json::Array diagnostics;
    for (const RecordedDiagnostic &diag : list)
      diagnostics.push_back(converter.convert(diag));
    return diagnostics;
  };
  json::Object result{
      {"chunk", static_cast<int64_t>(index)},
      {"lineOffset", static_cast<int64_t>(lineOffset)},
      {"pipeline", options.pipeline},
  };
  if (options.rerunAfter) {
    result["editedSnapshot"] = static_cast<int64_t>(*options.rerunAfter);
    result["firstStep"] = static_cast<int64_t>(*options.rerunAfter + 1);
    if (auto rest = remainingPipeline(options.pipeline, *options.rerunAfter))
      result["remainingPipeline"] = *rest;
    else
      llvm::consumeError(rest.takeError());
  }
  result["succeeded"] = recording.succeeded;
  result["totalMilliseconds"] = recording.totalMilliseconds;
  if (recording.inputIR && (options.irMode == IRMode::Changes || selected(-1)))
    result["input"] = *recording.inputIR;
  addSizes(result, recording.inputIR, "inputBytes", "inputLines");
  result["diagnostics"] = convertAll(recording.diagnostics);
  json::Array snapshots;
  snapshots.reserve(recording.snapshots.size());
  IRText previous = recording.inputIR;
  for (const Snapshot &snapshot : recording.snapshots) {
    json::Object object = snapshotToJSON(
        snapshot, SnapshotField::Index | SnapshotField::Options,
        [&](const RecordedDiagnostic &diag) -> json::Value {
          return converter.convert(diag);
        });
    // As the studio shows it and executor-compile names its file.
    object["number"] = static_cast<int64_t>(snapshot.index + 1);
    if (snapshot.ir &&
        ((options.irMode == IRMode::Changes && !snapshot.ir.sameAs(previous)) ||
         selected(snapshot.index)))
      object["ir"] = *snapshot.ir;
    addSizes(object, snapshot.ir, "bytes", "lines");
    if (!snapshot.nested.empty())
      object["nested"] = nestedToJSON(
          snapshot, converter,
          options.irMode == IRMode::Changes || selected(snapshot.index));
    snapshots.push_back(std::move(object));
    if (snapshot.ir)
      previous = snapshot.ir;
  }
  result["snapshots"] = std::move(snapshots);
  return result;
}

namespace {
/// The last few replies of chunkReply on recordings the recording
/// cache keeps, by the recording (the object: one recorded again after its
/// eviction has new times, and is another) and everything else the reply
/// depends on. Most recently used first.
class ChunkResultCache {
public:
  static ChunkResultCache &get() {
    static ChunkResultCache cache;
    return cache;
  }

  static std::string key(llvm::StringRef text, unsigned lineOffset,
                         unsigned index, const PipelineResultOptions &options) {
    std::string key;
    llvm::raw_string_ostream os(key);
    os << lineOffset << ' ' << index << ' ' << text.size() << ' '
       << llvm::xxh3_64bits(text) << ' ' << static_cast<int>(options.irMode)
       << ' ' << options.rerunAfter.value_or(-2) << ' ' << options.uri.size()
       << ' ' << options.uri << ' ' << options.bufferName.size() << ' '
       << options.bufferName << ' ' << options.pipeline.size() << ' '
       << options.pipeline;
    for (int snapshot : options.irSnapshots)
      os << ' ' << snapshot;
    return key;
  }

  std::optional<ChunkReply> lookup(const Recording *recording,
                                     const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    // Replies of recordings nobody keeps any more go first.
    llvm::erase_if(entries,
                   [](const Entry &entry) { return entry.recording.expired(); });
    auto it = llvm::find_if(entries, [&](const Entry &entry) {
      return entry.recording.lock().get() == recording && entry.key == key;
    });
    if (it == entries.end()) {
      ++stats.misses;
      return std::nullopt;
    }
    ++stats.hits;
    entries.splice(entries.begin(), entries, it);
    return entries.front().reply;
  }

  void insert(const std::shared_ptr<const Recording> &recording,
              std::string key, ChunkReply reply) {
    std::lock_guard<std::mutex> lock(mutex);
    entries.push_front({recording, std::move(key), std::move(reply)});
    if (entries.size() > kMaxEntries)
      entries.pop_back();
  }

  ChunkResultCacheStatistics statistics() {
    std::lock_guard<std::mutex> lock(mutex);
    ChunkResultCacheStatistics result = stats;
    result.entries = entries.size();
    return result;
  }

private:
  /// A reply holds a summary per step (some MiB of JSON for 512 targets,
  /// serialized); a few documents' last previews.
  static constexpr size_t kMaxEntries = 4;
  struct Entry {
    std::weak_ptr<const Recording> recording;
    std::string key;
    ChunkReply reply;
  };
  std::mutex mutex;
  std::list<Entry> entries;
  ChunkResultCacheStatistics stats;
};
} // namespace

namespace {
/// The compact JSON of `value`.
std::shared_ptr<const std::string> serialize(const json::Value &value) {
  auto text = std::make_shared<std::string>();
  llvm::raw_string_ostream os(*text);
  os << value;
  return text;
}
} // namespace

void executor_studio::lsp::ChunkReply::write(llvm::raw_ostream &os) const {
  // llvm::json writes an object's members sorted by key: "snapshots" goes
  // where it sorts among the head's.
  std::vector<const json::Object::value_type *> members;
  for (const auto &member : head)
    members.push_back(&member);
  llvm::sort(members, [](const auto *left, const auto *right) {
    return left->first < right->first;
  });
  json::OStream json(os);
  json.objectBegin();
  bool snapshotsWritten = false;
  auto writeSnapshots = [&] {
    json.attributeBegin("snapshots");
    json.rawValue(snapshots ? llvm::StringRef(*snapshots) : "[]");
    json.attributeEnd();
    snapshotsWritten = true;
  };
  for (const auto *member : members) {
    if (!snapshotsWritten &&
        llvm::StringRef("snapshots") < llvm::StringRef(member->first))
      writeSnapshots();
    json.attribute(member->first, member->second);
  }
  if (!snapshotsWritten)
    writeSnapshots();
  json.objectEnd();
}

json::Object executor_studio::lsp::ChunkReply::toObject() const {
  json::Object object = head;
  llvm::Expected<json::Value> parsed =
      json::parse(snapshots ? llvm::StringRef(*snapshots) : "[]");
  if (!parsed) // we wrote it
    llvm::report_fatal_error(parsed.takeError());
  object["snapshots"] = std::move(*parsed);
  return object;
}

ChunkReply executor_studio::lsp::chunkReply(
    const Recording &recording, llvm::StringRef text, unsigned lineOffset,
    unsigned index, const PipelineResultOptions &options) {
  ChunkReply reply;
  reply.head = chunkResultToJSON(recording, text, lineOffset, index, options);
  if (json::Value *snapshots = reply.head.get("snapshots")) {
    reply.snapshots = serialize(*snapshots);
    reply.head.erase("snapshots");
  }
  return reply;
}

ChunkReply executor_studio::lsp::chunkReply(
    const std::shared_ptr<const Recording> &recording, llvm::StringRef text,
    unsigned lineOffset, unsigned index, const PipelineResultOptions &options) {
  ChunkResultCache &cache = ChunkResultCache::get();
  std::string key = ChunkResultCache::key(text, lineOffset, index, options);
  if (std::optional<ChunkReply> reply = cache.lookup(recording.get(), key))
    return std::move(*reply);
  ChunkReply reply = chunkReply(*recording, text, lineOffset, index, options);
  cache.insert(recording, std::move(key), reply);
  return reply;
}

executor_studio::lsp::ChunkResultCacheStatistics
executor_studio::lsp::getChunkResultCacheStatistics() {
  return ChunkResultCache::get().statistics();
}

json::Object executor_studio::lsp::cacheStatisticsToJSON() {
  RecordingCacheStatistics recordings = getRecordingCacheStatistics();
  ChunkResultCacheStatistics replies = getChunkResultCacheStatistics();
  auto count = [](size_t n) { return static_cast<int64_t>(n); };
  return json::Object{
      {"recordings", json::Object{{"hits", count(recordings.hits)},
                                  {"misses", count(recordings.misses)},
                                  {"entries", count(recordings.entries)},
                                  {"bytes", count(recordings.bytes)},
                                  {"limit", count(recordings.limit)}}},
      {"replies", json::Object{{"hits", count(replies.hits)},
                               {"misses", count(replies.misses)},
                               {"entries", count(replies.entries)}}}};
}

json::Array executor_studio::lsp::diagnosticsToJSON(
    const Recording &recording, llvm::StringRef text, unsigned lineOffset,
    const PipelineResultOptions &options) {
  DiagnosticConverter converter(text, lineOffset, options.uri,
                                options.bufferName);
  json::Array diagnostics;
  for (const RecordedDiagnostic &diag : recording.diagnostics)
    diagnostics.push_back(converter.convert(diag));
  return diagnostics;
}

llvm::Expected<json::Object>
executor_studio::lsp::stepTextToJSON(const Recording &recording, int64_t step,
                                     std::optional<int64_t> nested) {
  auto invalid = [](const llvm::Twine &message) {
    return makeError(proto::ErrorCode::InvalidParams, message);
  };
  const IRText *text = &recording.inputIR;
  const Snapshot *snapshot = nullptr;
  if (step >= 0) {
    auto it = llvm::find_if(recording.snapshots, [&](const Snapshot &s) {
      return static_cast<int64_t>(s.index) == step;
    });
    if (it == recording.snapshots.end())
      return invalid(llvm::formatv(
          "the recording has no step {0}: its steps are {1} to {2} (-1 is "
          "the input)",
          step,
          recording.snapshots.empty() ? 0 : recording.snapshots.front().index,
          recording.snapshots.empty()
              ? -1
              : static_cast<int64_t>(recording.snapshots.back().index)));
    snapshot = &*it;
    text = &snapshot->ir;
    if (nested) {
      if (*nested >= static_cast<int64_t>(snapshot->nested.size()))
        return invalid(llvm::formatv(
            "step {0} ({1}) has {2} nested steps, not {3}", step,
            snapshot->pass, snapshot->nested.size(), *nested + 1));
      snapshot = &snapshot->nested[*nested];
      text = &snapshot->ir;
    }
  }
  if (!*text)
    return makeError(proto::ErrorCode::RequestFailed,
                     "the recording has no text for this step");
  json::Object result{{"step", step}, {"text", **text}};
  if (nested)
    result["nested"] = *nested;
  result["kind"] = snapshotKindName(snapshot ? snapshot->kind
                                             : SnapshotKind::MLIR);
  return result;
}

llvm::Expected<json::Value>
executor_studio::lsp::getStepText(const StepTextParams &params) {
  std::shared_ptr<const Recording> recording =
      lookupCachedRecording(params.recording);
  if (!recording)
    return makeError(
        proto::ErrorCode::ContentModified,
        llvm::formatv("recording {0} is no longer kept (the recording cache "
                      "evicted it, or it is from another run of the "
                      "server): preview the document again, or ask the "
                      "preview for this step's text (\"withText\")",
                      params.recording));
  llvm::Expected<json::Object> text =
      stepTextToJSON(*recording, params.step, params.nested);
  if (!text)
    return text.takeError();
  (*text)["recording"] = params.recording;
  return json::Value(std::move(*text));
}
