//===- PipelineJobs.h - pipeline runs in worker processes -------*- C++ -*-===//
//
// Schedules and cancels the language server's pipeline runs: a preview
// (`executor/pipelinePreview`), a re-run on edited IR (`executor/rerunFrom`),
// the pipeline's own diagnostics after an edit, and the compile of a launch
// from the editor (`executor/launch`, Launch.h). Each runs on a thread of
// its own, each chunk in a recording worker process (core's
// RecordingWorker.h: `executor-lsp-server --record-worker`; the result as
// PipelineResults.h writes it); an edit, a close, a `$/cancelRequest`, a
// time-out or the server's exit kills it at once.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_PIPELINEJOBS_H
#define EXECUTORLSP_PIPELINEJOBS_H

#include "ExecutorLsp/Forward.h"
#include "ExecutorLsp/MessageOutput.h"

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace executor_studio {
namespace lsp {
class TextFile;
struct LaunchSpec;
struct PipelinePreviewParams;
struct RerunFromParams;
struct ServerOptions;

class PipelineJobs {
public:
  enum class Kind { Preview, Diagnostics, Launch };

  /// Publishes the diagnostics of `uri` at `version` that a job of `kind`
  /// found (the pipeline's, or a launch's crash) unless the document moved
  /// on or `isCancelled()` (asked under the caller's lock).
  using PublishFn =
      std::function<void(Kind kind, const llvm::lsp::URIForFile &uri,
                         int64_t version,
                         llvm::function_ref<bool()> isCancelled,
                         std::vector<llvm::lsp::Diagnostic> diagnostics)>;

  /// `options` (the worker's executable, time-outs) is read when a job
  /// starts and must outlive the jobs.
  PipelineJobs(const ServerOptions &options, PublishFn publish);
  /// Cancels the running jobs and waits for their threads.
  ~PipelineJobs();

  /// Starts `executor/pipelinePreview` on `file`, answered through `reply`;
  /// `requestKey` names it for cancelRequest(). With `rawReply`, its reply
  /// (the steps' summaries, kept serialized) is written through that
  /// instead (MessageOutput.h), its errors through `reply`.
  void startPreview(const TextFile &file, const PipelinePreviewParams &params,
                    std::string requestKey,
                    llvm::lsp::Callback<llvm::json::Value> reply,
                    RawReply rawReply = nullptr);
  /// Starts `executor/rerunFrom` on `file`.
  void startRerun(const TextFile &file, const RerunFromParams &params,
                  std::string requestKey,
                  llvm::lsp::Callback<llvm::json::Value> reply,
                  RawReply rawReply = nullptr);
  /// Starts a question about the recording of `file` (`executor/opHistory`,
  /// `executor/alignedSnapshots`): `query` is one of OpHistory.h,
  /// `what` names the request in errors.
  void startQuery(const TextFile &file, const PipelinePreviewParams &params,
                  llvm::json::Object query, llvm::StringRef what,
                  std::string requestKey,
                  llvm::lsp::Callback<llvm::json::Value> reply);
  /// Starts `executor/launch` of `spec` (found in `file`): the pipeline with
  /// debug info in a worker, then the launch (Launch.h).
  void startLaunch(const TextFile &file, const LaunchSpec &spec,
                   std::string requestKey,
                   llvm::lsp::Callback<llvm::json::Value> reply);
  /// Runs the pipeline on `file` for its diagnostics once the typing pauses
  /// (when enabled, and the text is valid and mentions our dialects).
  void startDiagnostics(const TextFile &file);

  /// Cancels the jobs on `file` (all when empty) of `kind` (all when none).
  void cancel(llvm::StringRef file, std::optional<Kind> kind,
              llvm::lsp::ErrorCode code, const std::string &message);
  /// Cancels the preview of request `key` (`$/cancelRequest`).
  void cancelRequest(llvm::StringRef key);

  struct Job;
  struct Input;

private:
  void start(Kind kind, const llvm::lsp::URIForFile &uri, int64_t version,
             Input input, std::string requestKey,
             llvm::lsp::Callback<llvm::json::Value> reply,
             RawReply rawReply = nullptr);
  void run(Job &job, const Input &input);
  void runLaunchJob(Job &job, const Input &input);
  void reap();
  /// The directory of the previews' workspaces (made on first use, removed
  /// with the jobs); empty when it cannot be made.
  std::string getPreviewWorkspaces();

  const ServerOptions &options;
  PublishFn publish;
  std::mutex mutex;
  std::vector<std::shared_ptr<Job>> jobs;
  std::string previewWorkspaces;
};

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_PIPELINEJOBS_H
