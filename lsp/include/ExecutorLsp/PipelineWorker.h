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
// where diagnostics are LSP diagnostics of the document (with "pass"), and a
// snapshot's "ir" is left out when it equals the previous snapshot's (or the
// input's, for the first).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_PIPELINEWORKER_H
#define EXECUTORLSP_PIPELINEWORKER_H

#include <string>

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
  /// The `// -----` chunk to run, or -1 for every chunk that mentions the
  /// catalyst or executor dialects.
  int chunk = -1;
  /// Print the IR after every pass (off: diagnostics and timing only).
  bool recordIR = true;
  bool allowUnregisteredDialects = false;
};

/// Runs the request; returns the process exit code.
int runPipelineWorker(const PipelineWorkerRequest &request);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_PIPELINEWORKER_H
