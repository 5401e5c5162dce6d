//===- Server.h - executor-lsp-server ---------------------------*- C++ -*-===//
//
// The language server's message loop: llvm::lsp::JSONTransport and
// MessageHandler with the methods of mlir-lsp-server for .mlir files plus
// `executor/pipelinePreview`, code lenses and the executor pipeline's own
// diagnostics (DESIGN.md, "Language server").
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_SERVER_H
#define EXECUTORLSP_SERVER_H

#include "llvm/ADT/StringRef.h"

#include <cstdio>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace executor_studio {
namespace lsp {

struct ServerOptions {
  /// Let ops of unregistered dialects through (also `initializationOptions`
  /// `{"allowUnregisteredDialect": true}`).
  bool allowUnregisteredDialects = false;
  /// Run the default pipeline after each change and publish the diagnostics
  /// of the pass that fails (`pipelineDiagnostics`).
  bool pipelineDiagnostics = true;
  /// How long the server waits after the last change before it runs the
  /// pipeline for diagnostics, and how long such a run may take.
  unsigned pipelineDiagnosticsDelayMs = 300;
  unsigned pipelineDiagnosticsTimeoutMs = 20000;
  /// How long an `executor/pipelinePreview` may take
  /// (`previewTimeoutMs`).
  unsigned previewTimeoutMs = 30000;
  /// Threads that verify isolated regions in parallel (0: one per core, 1:
  /// none besides the message thread).
  unsigned verifyThreads = 0;
  /// The executable that records pipelines (`--record-worker`,
  /// RecordingWorker.h): this one.
  std::string workerExecutable;
};

/// How the transport reads and writes.
struct TransportOptions {
  /// `// -----`-delimited input instead of Content-Length headers (lit).
  bool delimitedInput = false;
  /// Indented JSON output (lit).
  bool prettyOutput = false;
};

/// Serves `in` and `out` until the `exit` notification or the end of the
/// input. Returns whether `shutdown` came before.
bool runServer(std::FILE *in, llvm::raw_ostream &out,
               const TransportOptions &transport, const ServerOptions &options);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_SERVER_H
