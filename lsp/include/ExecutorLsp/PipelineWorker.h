//===- PipelineWorker.h - the pipeline, run in a child process --*- C++ -*-===//
//
// Previews and the passes' own diagnostics run the executor pipeline through
// the pipeline recorder in a child process (`executor-lsp-server
// --pipeline-worker`): the server stays responsive, a time-out, an edit or a
// cancellation ends the run at once (the child is killed), and a pass that
// crashes takes only the child down.
//
// The child writes one JSON object:
//   {"chunks": [{"chunk", "lineOffset", "pipeline", "succeeded",
//                "totalMilliseconds", "input"?, "diagnostics",
//                "snapshots": [{"index", "pass", "options", "anchor",
//                               "changed", "failed", "milliseconds", "ir"?,
//                               "diagnostics"}]}]}
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
#ifndef EXECUTORLSP_PIPELINEWORKER_H
#define EXECUTORLSP_PIPELINEWORKER_H

#include <optional>
#include <string>
#include <vector>

namespace executor_studio {
namespace lsp {

struct PipelineWorkerRequest {
  /// The document's text (a file) and where to write the result.
  std::string inputPath;
  std::string outputPath;
  /// The document's URI, for the diagnostics' locations.
  std::string uri;
  /// The textual pipeline; empty for the default pipeline.
  std::string pipeline;
  /// The default pipeline's workspace (cross-compile-targets' objects).
  std::string workspace;
  /// The default pipeline compiles the kernels with debug info (a launch).
  bool debug = false;
  /// The `// -----` chunk to run, or -1 for every chunk that mentions the
  /// catalyst or executor dialects.
  int chunk = -1;
  /// Which IR the result holds.
  enum class IRMode { Changes, None, Selected };
  IRMode irMode = IRMode::Changes;
  /// For IRMode::Selected: snapshot indices, -1 for the input.
  std::vector<int> irSnapshots;
  bool allowUnregisteredDialects = false;
  /// Re-run: the input is the IR after this snapshot (-1: the input), edited;
  /// record the steps after it.
  std::optional<int> rerunAfter;
};

/// Runs the request; returns the process exit code.
int runPipelineWorker(const PipelineWorkerRequest &request);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_PIPELINEWORKER_H
