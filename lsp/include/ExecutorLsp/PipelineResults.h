//===- PipelineResults.h - a recording as the preview's JSON ----*- C++ -*-===//
//
// Previews and the passes' own diagnostics run the executor pipeline in a
// recording worker (core's RecordingWorker.h; PipelineJobs schedules them);
// this turns each chunk's recording into the JSON the server answers with:
//   {"chunk", "lineOffset", "pipeline", "succeeded", "totalMilliseconds",
//    "input"?, "diagnostics",
//    "snapshots": [{"index", "number", "pass", "options", "anchor",
//                   "changed", "failed", "milliseconds", "ir"?,
//                   "bytes"?, "lines"?, "diagnostics", "nested"?}]}
// and "inputBytes", "inputLines" (the sizes of each text, sent or not), and
// "recording" (the id `executor/stepText` fetches any step's text by, from
// the recording cache; PipelineJobs adds it).
// where diagnostics are LSP diagnostics of the document (with "pass"). Which
// IR it holds depends on the request: every snapshot's "ir" where it differs
// from the previous snapshot's (or the input's, for the first), none (the
// recorder then prints nothing, which is much faster), or the IR of chosen
// snapshots (-1: the input).
//
// A re-run (`executor/rerunFrom`) takes the edited IR after one snapshot as
// its input (one program, not split) and records the steps after it
// (recordPipelineFrom): its one chunk has "lineOffset" 0 (its diagnostics
// are at lines of the edited text), snapshot indices of the whole pipeline,
// and also "editedSnapshot", "firstStep" and "remainingPipeline" (the steps
// it ran, for executor-opt --pass-pipeline).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_PIPELINERESULTS_H
#define EXECUTORLSP_PIPELINERESULTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace executor_studio {
struct Recording;
namespace lsp {

/// What a chunk's JSON holds, and where its diagnostics are.
struct PipelineResultOptions {
  /// The document's URI, for the diagnostics' locations, and the buffer
  /// name the recorder parsed the chunk under.
  std::string uri;
  std::string bufferName;
  /// The textual pipeline recorded.
  std::string pipeline;
  /// Which IR the result holds.
  enum class IRMode { Changes, None, Selected };
  IRMode irMode = IRMode::Changes;
  /// For IRMode::Selected: snapshot indices, -1 for the input.
  std::vector<int> irSnapshots;
  /// A re-run after this snapshot.
  std::optional<int> rerunAfter;

  /// Parses the request's "ir": "changes", "none" or snapshot indices
  /// ("-1,3").
  void setIR(llvm::StringRef ir);
};

/// The JSON of chunk `index` (`text`, at line `lineOffset` of the document).
llvm::json::Object chunkResultToJSON(const Recording &recording,
                                     llvm::StringRef text, unsigned lineOffset,
                                     unsigned index,
                                     const PipelineResultOptions &options);

/// A chunk's preview JSON with its steps' summaries ("snapshots", the bulk
/// of it: some MiB for 512 targets) serialized once, so that a reply is
/// written without building, copying or serializing them again.
struct ChunkReply {
  /// Every member but "snapshots"; a caller adds its own (none named
  /// "snapshots").
  llvm::json::Object head;
  /// The compact JSON of the "snapshots" array.
  std::shared_ptr<const std::string> snapshots;

  /// Writes the chunk as compact JSON, byte for byte as `os <<
  /// llvm::json::Value(toObject())` (members in llvm::json's order).
  void write(llvm::raw_ostream &os) const;
  /// The whole chunk as JSON (parses the summaries back).
  llvm::json::Object toObject() const;
};

/// chunkResultToJSON as a ChunkReply.
ChunkReply chunkReply(const Recording &recording, llvm::StringRef text,
                      unsigned lineOffset, unsigned index,
                      const PipelineResultOptions &options);

/// chunkReply of a recording that the recording cache keeps
/// (WorkerRecording::recording with a cacheId): a repeated preview of an
/// unchanged document (the same recording object, chunk and options)
/// answers with the reply made the first time (its serialized summaries
/// shared), from a cache of the last few replies, byte for byte the same,
/// instead of building the summaries of every step again.
ChunkReply chunkReply(const std::shared_ptr<const Recording> &recording,
                      llvm::StringRef text, unsigned lineOffset,
                      unsigned index, const PipelineResultOptions &options);
/// The replies that cache holds, and how often it answered.
struct ChunkResultCacheStatistics {
  size_t hits = 0, misses = 0, entries = 0;
};
ChunkResultCacheStatistics getChunkResultCacheStatistics();
/// `executor/cacheStatistics`: what the recording cache
/// (getRecordingCacheStatistics: hits, misses, entries, bytes, limit) and
/// the cache of replies (hits, misses, entries) hold.
llvm::json::Object cacheStatisticsToJSON();

/// The recording's own diagnostics (the parser's, the passes') as LSP
/// diagnostics of the document, for chunk `text` at line `lineOffset`.
llvm::json::Array diagnosticsToJSON(const Recording &recording,
                                    llvm::StringRef text, unsigned lineOffset,
                                    const PipelineResultOptions &options);

/// The answer of `executor/stepText`: {"step", "nested"?, "kind", "text"},
/// the text of snapshot `step` (its index; -1: the input), or of its
/// nested step at position `nested`, byte for byte as a preview with that
/// text prints it. Fails (InvalidParams) for a step the recording does not
/// have.
llvm::Expected<llvm::json::Object>
stepTextToJSON(const Recording &recording, int64_t step,
               std::optional<int64_t> nested);

struct StepTextParams;
/// `executor/stepText`: stepTextToJSON of the recording the cache keeps
/// under `params.recording`, with that id; ContentModified when the cache
/// no longer keeps it (the client previews again).
llvm::Expected<llvm::json::Value> getStepText(const StepTextParams &params);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_PIPELINERESULTS_H
