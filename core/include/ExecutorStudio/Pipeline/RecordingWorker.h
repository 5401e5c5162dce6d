//===- RecordingWorker.h - a recording made in a child process --*- C++ -*-===//
//
// The one way front ends record a pipeline off their own process: the
// language server's previews and the studio's recordings run in a worker
// process (`EXE --record-worker REQUEST RESULT`, a hidden mode of the
// executable that starts it: its main() calls runRecordWorkerIfAsked,
// Registration/TextEntryPoints.h), so a pass that crashes takes only the worker
// down, and a time-out or a cancellation kills it at once.
//
// The request crosses as a JSON file; the recording comes back in its binary
// form (writeRecording/readRecording below: snapshots, the nested steps of
// each target with their LLVM IR and assembly, diagnostics, timings,
// changed marks), its texts in a file of their own next to it
// (RESULT.texts), read when a front end shows one.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_PIPELINE_RECORDINGWORKER_H
#define EXECUTORSTUDIO_PIPELINE_RECORDINGWORKER_H

#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/StructuralDiff.h"

#include "llvm/ADT/BitmaskEnum.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace executor_studio {

/// What the worker records.
struct RecordRequest {
  /// The program (parsed with every dialect of executor-opt) and its name in
  /// diagnostics.
  std::string text;
  std::string bufferName;
  RecordOptions options;
  /// Re-run the steps after this one on `text` (recordPipelineFrom); none:
  /// record the whole pipeline (recordPipeline).
  std::optional<int> rerunAfter;
  /// Which snapshots' text the worker sends back (indices, -1 for the input;
  /// the nested steps of a snapshot sent come with it); none: every text.
  /// With RecordOptions::deferText only those are printed.
  std::optional<std::vector<int>> irSnapshots;
  /// Instead of recording: align `text` (the left side) with this text (the
  /// right side) by the structural diff (alignSnapshots), which parses both.
  std::optional<std::string> alignWith;
};

/// How a run in the worker ended.
struct WorkerRecording {
  enum class Status { Finished, Cancelled, TimedOut, Failed };
  Status status = Status::Failed;
  /// Finished: the recording (never null then), shared with the cache of
  /// finished recordings when it keeps it: an unchanged request costs no
  /// copy of it.
  std::shared_ptr<const Recording> recording;
  /// Failed: why (the worker's exit, e.g. "killed by signal SIGSEGV", and
  /// the first lines it wrote on stderr, where MLIR names a crashing pass).
  std::string error;
  /// Finished and kept in the cache of finished recordings (below): its id
  /// there, for lookupCachedRecording; empty when it was not kept.
  std::string cacheId;
};

/// Records `request` in a worker process: `workerExecutable --record-worker
/// REQUEST RESULT`. Kills it when `cancelled` (asked every few
/// milliseconds) says so or after `timeout`. A request recorded before (the
/// same program, options and worker executable) answers from the cache of
/// finished recordings (below) without a worker.
WorkerRecording recordInWorker(const RecordRequest &request,
                               llvm::StringRef workerExecutable,
                               std::chrono::milliseconds timeout,
                               llvm::function_ref<bool()> cancelled = nullptr);

/// recordInWorker without the cache: always a worker.
WorkerRecording recordInWorkerUncached(
    const RecordRequest &request, llvm::StringRef workerExecutable,
    std::chrono::milliseconds timeout,
    llvm::function_ref<bool()> cancelled = nullptr);

/// The cache of finished recordings that recordInWorker answers an
/// unchanged request from (issue 39): the language server's, the studio's.
/// In memory, least recently used out; 256 MiB of texts unless
/// EXECUTOR_STUDIO_RECORDING_CACHE_MB says otherwise (0: off).
struct RecordingCacheStatistics {
  size_t hits = 0, misses = 0, entries = 0, bytes = 0, limit = 0;
};
RecordingCacheStatistics getRecordingCacheStatistics();
/// The recording that recordInWorker answered with WorkerRecording::cacheId
/// `id`, while the cache keeps it (the language server's texts on demand,
/// `executor/stepText`); null once it was evicted, or for an unknown id.
std::shared_ptr<const Recording> lookupCachedRecording(llvm::StringRef id);
void setRecordingCacheLimit(size_t bytes);

/// alignSnapshots(left, right) in a worker process (RecordRequest::alignWith),
/// so that a text that crashes the parser takes only the worker down. Fails
/// with the reason the texts could not be aligned (where a text does not
/// parse), or how the worker failed, was cancelled or timed out.
llvm::Expected<AlignedSnapshots>
alignInWorker(llvm::StringRef left, llvm::StringRef right,
              llvm::StringRef workerExecutable, std::chrono::milliseconds timeout,
              llvm::function_ref<bool()> cancelled = nullptr);

/// The worker's side, runRecordWorker and runRecordWorkerIfAsked, records
/// text: it is declared in ExecutorStudio/Registration/TextEntryPoints.h.

llvm::json::Value toJSON(const RecordedDiagnostic &diagnostic);

/// The fields of a snapshot's JSON besides the ones every such JSON has
/// (snapshotToJSON).
enum class SnapshotField : unsigned {
  None = 0,
  Index = 1 << 0,   ///< "index": its position in its recording (or target)
  Options = 1 << 1, ///< "options": its pass's
  Edited = 1 << 2,  ///< "edited": it ran on a text the user edited
  Kind = 1 << 3,    ///< "kind": its text's (snapshotKindName)
  Target = 1 << 4,  ///< "target": the target its nested pipeline ran for
  All = Index | Options | Edited | Kind | Target,
  LLVM_MARK_AS_BITMASK_ENUM(/*LargestValue=*/Target)
};
LLVM_ENABLE_BITMASK_ENUMS_IN_NAMESPACE();

/// The one JSON form of a snapshot, for every reader (the recording
/// worker's file, the language server's preview): "pass", "anchor",
/// "changed", "failed", "milliseconds", the `fields` asked for, and
/// "diagnostics", each as `diagnostic` writes it. Its text and its nested
/// steps are the caller's (each sends them its own way).
llvm::json::Object snapshotToJSON(
    const Snapshot &snapshot, SnapshotField fields,
    llvm::function_ref<llvm::json::Value(const RecordedDiagnostic &)>
        diagnostic);
bool fromJSON(const llvm::json::Value &value, RecordedDiagnostic &diagnostic,
              llvm::json::Path path);
llvm::json::Value toJSON(const RecordOptions &options);
bool fromJSON(const llvm::json::Value &value, RecordOptions &options,
              llvm::json::Path path);
llvm::json::Value toJSON(const RecordRequest &request);
bool fromJSON(const llvm::json::Value &value, RecordRequest &request,
              llvm::json::Path path);
/// The recording's one serialized form: what a worker sends back and the
/// target cache keeps on disk. Its structure (every field of every snapshot
/// and nested step, diagnostics, where each text is) goes to `out` in a
/// compact binary form; the texts' bytes go to `texts`, one after the
/// other, each written once: a step that changed nothing shares its
/// predecessor's text on both sides (IRText::sameAs holds after the trip).
/// Only the texts of the snapshots in `irSnapshots` (RecordRequest; the
/// nested steps of a snapshot sent come with it) are written; none: every
/// text. Neither side escapes, parses or copies megabytes of JSON.
void writeRecording(const Recording &recording,
                    const std::optional<std::vector<int>> &irSnapshots,
                    llvm::raw_ostream &out, llvm::raw_ostream &texts);
/// What writeRecording wrote, its texts from `texts`. Every count, size and
/// place is checked against what is left before it is used: a damaged or
/// hostile input fails, naming what is wrong and at which byte.
llvm::Expected<Recording> readRecording(llvm::StringRef bytes,
                                        llvm::StringRef texts);
/// Where the worker writes the texts of its result at `resultPath`.
std::string getWorkerTextsPath(llvm::StringRef resultPath);
llvm::json::Value toJSON(const AlignedSnapshots &aligned);
bool fromJSON(const llvm::json::Value &value, AlignedSnapshots &aligned,
              llvm::json::Path path);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_PIPELINE_RECORDINGWORKER_H
