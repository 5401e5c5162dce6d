//===- Launch.h - executor/launch: a kernel run from the editor -*- C++ -*-===//
//
// `executor/launch` runs one kernel of the document on an executor: the
// server compiles the document's chunk with the default pipeline and debug
// info (in a pipeline worker, PipelineJobs.h), ships the kernel's object
// and launches it with the request's inputs. A kernel that crashes on
// executor-server comes back with its backtrace (Backtrace.h): the server
// publishes an error diagnostic at the faulting .mlir line of the document
// (the signal and the kernel; the other frames as related information),
// until the document changes.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_LAUNCH_H
#define EXECUTORLSP_LAUNCH_H

#include "ExecutorLsp/Forward.h"

#include "ExecutorStudio/Launch/KernelArguments.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace executor_studio {
namespace runtime {
class ExecutorClient;
} // namespace runtime
namespace lsp {

struct LaunchParams;

/// What to launch, found in the document.
struct LaunchSpec {
  std::string kernel; ///< `@module::@entry`
  std::string module; ///< the target's name (its object's)
  std::string entry;
  unsigned chunk = 0, lineOffset = 0;
  std::string address;
  /// The triple its target is compiled for (catalyst.target.triple, else
  /// the host's), and whether it is dispatched (only a dispatched target is
  /// compiled for another machine: cross-compile-targets).
  std::string triple;
  bool dispatched = false;
  /// Its arguments and results (KernelArguments.h), and the arguments'
  /// values (the request's "inputs", else 1, 2, 3, ...).
  std::vector<ShapedArg> inputs, results;
  std::vector<MemRefData> inputValues;
};

/// The launch `params` asks for in `file`, or why it cannot be run.
llvm::Expected<LaunchSpec> findLaunch(const TextFile &file,
                                      const LaunchParams &params);

/// Opens the session `spec` launches on, before its compile: the
/// executor's triple decides what its target is compiled for
/// (retargetTriple). Null, with the failed launch's result in `failed`,
/// when it cannot.
std::unique_ptr<runtime::ExecutorClient>
openLaunchSession(const LaunchSpec &spec, std::chrono::milliseconds timeout,
                  llvm::json::Value &failed);

/// The triple to compile the target of `spec` for so that it runs on an
/// executor of `executorTriple`: that triple when the target's own is of
/// another architecture and the target is dispatched, else "" (as it is).
std::string retargetTriple(const LaunchSpec &spec,
                           const std::string &executorTriple);

/// Launches `spec` on `client` with the objects the pipeline wrote to
/// `workspace`; the result is `{kernel, address, ok, results?, error?,
/// signal?, frames?, retargeted?}` (`retargeted`: the triple the target
/// was compiled for instead of its own, `retargetedTo`, when not empty). A
/// crash with frames in the document adds its diagnostic.
llvm::json::Value runLaunch(const LaunchSpec &spec, llvm::StringRef workspace,
                            const llvm::lsp::URIForFile &uri,
                            runtime::ExecutorClient &client,
                            const std::string &retargetedTo,
                            std::vector<llvm::lsp::Diagnostic> &diagnostics);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_LAUNCH_H
