//===- executor-lsp-server.cpp - the language server ------------*- C++ -*-===//
//
// LSP for .mlir files with every dialect of executor-opt, plus the executor
// pipeline's previews and diagnostics (DESIGN.md, "Language server").
//
//===----------------------------------------------------------------------===//
#include "ExecutorLsp/Server.h"

#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Registration/Registration.h"
#include "ExecutorStudio/Support/Targets.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <signal.h>

using namespace llvm;
namespace es = executor_studio::lsp;

namespace {
cl::OptionCategory serverCategory("executor-lsp-server options");

/// What the options below set (their defaults are ServerOptions').
es::ServerOptions serverOptions;

cl::opt<bool> litTest(
    "lit-test",
    cl::desc("Test mode: messages delimited by '// -----' lines, indented "
             "output, and the test:// URI scheme"),
    cl::cat(serverCategory));
cl::opt<lsp::Logger::Level> logLevel(
    "log", cl::desc("What to log on stderr"),
    cl::init(lsp::Logger::Level::Error),
    cl::values(clEnumValN(lsp::Logger::Level::Error, "error", "errors only"),
               clEnumValN(lsp::Logger::Level::Info, "info",
                          "every message and its handling"),
               clEnumValN(lsp::Logger::Level::Debug, "verbose",
                          "also the messages' text")),
    cl::cat(serverCategory));
cl::opt<bool> prettyOutput("pretty", cl::desc("Indent the JSON output"),
                           cl::cat(serverCategory));
cl::opt<bool, true> allowUnregisteredDialects(
    "allow-unregistered-dialect",
    cl::location(serverOptions.allowUnregisteredDialects),
    cl::desc("Let ops of dialects that are not registered through (their "
             "files still get navigation)"),
    cl::cat(serverCategory));
cl::opt<bool, true> pipelineDiagnostics(
    "pipeline-diagnostics", cl::location(serverOptions.pipelineDiagnostics),
    cl::desc("Run the default pipeline after each change and publish the "
             "errors of the pass that fails"),
    cl::cat(serverCategory));
cl::opt<unsigned, true> pipelineDiagnosticsDelay(
    "pipeline-diagnostics-delay-ms",
    cl::location(serverOptions.pipelineDiagnosticsDelayMs),
    cl::desc("How long to wait after a change before that run"),
    cl::cat(serverCategory));
cl::opt<unsigned, true> pipelineDiagnosticsTimeout(
    "pipeline-diagnostics-timeout-ms",
    cl::location(serverOptions.pipelineDiagnosticsTimeoutMs),
    cl::desc("How long that run may take"), cl::cat(serverCategory));
cl::opt<unsigned, true>
    previewTimeout("preview-timeout-ms",
                   cl::location(serverOptions.previewTimeoutMs),
                   cl::desc("How long an executor/pipelinePreview may take"),
                   cl::cat(serverCategory));
cl::opt<unsigned> recordingCacheMB(
    "recording-cache-mb",
    cl::desc("MiB of texts the cache of finished recordings keeps (0: off; "
             "default 256, or EXECUTOR_STUDIO_RECORDING_CACHE_MB)"),
    cl::value_desc("MiB"), cl::cat(serverCategory));

// What language clients pass (vscode-languageclient: `--stdio` for
// TransportKind.stdio, and `--clientProcessId=N`). stdin/stdout is the only
// transport; the other transports' arguments get a clear error.
cl::opt<bool> stdioTransport(
    "stdio", cl::desc("Speak LSP on stdin and stdout (the only transport)"),
    cl::cat(serverCategory));
cl::opt<int> clientProcessId(
    "clientProcessId",
    cl::desc("Exit when the process with this id (the editor) is gone"),
    cl::init(0), cl::value_desc("pid"), cl::cat(serverCategory));
cl::opt<std::string> nodeIpcTransport("node-ipc", cl::Hidden,
                                      cl::ValueOptional);
cl::opt<std::string> pipeTransport("pipe", cl::Hidden);
cl::opt<std::string> socketTransport("socket", cl::Hidden);

cl::opt<unsigned, true> verifyThreads(
    "verify-threads", cl::location(serverOptions.verifyThreads),
    cl::desc("Threads that verify in parallel (0: one per core, 1: none)"),
    cl::cat(serverCategory));

/// The first transport option other than stdio that was given, or "".
StringRef unsupportedTransport() {
  if (nodeIpcTransport.getNumOccurrences())
    return "--node-ipc";
  if (pipeTransport.getNumOccurrences())
    return "--pipe";
  if (socketTransport.getNumOccurrences())
    return "--socket";
  return "";
}

/// Whether the process `pid` is gone: it does not exist, or it has exited and
/// only its zombie waits for its parent.
bool processGone(int pid) {
  if (::kill(pid, 0) == -1 && errno == ESRCH)
    return true;
  // /proc/PID/stat: "PID (COMM) STATE ...", COMM may contain ')'.
  auto stat = MemoryBuffer::getFileAsStream("/proc/" + std::to_string(pid) +
                                            "/stat");
  if (!stat)
    return false;
  StringRef rest = (*stat)->getBuffer();
  size_t paren = rest.rfind(')');
  if (paren == StringRef::npos)
    return false;
  rest = rest.drop_front(paren + 1).ltrim();
  return rest.starts_with("Z") || rest.starts_with("X");
}

/// Ends this process when `pid` is gone: the editor that started the server
/// died without closing its end of stdin (LSP's `processId` contract). The
/// pipeline workers die with it (PR_SET_PDEATHSIG).
void watchClientProcess(int pid) {
  std::thread([pid] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      if (processGone(pid)) {
        llvm::errs() << "executor-lsp-server: the client process " << pid
                     << " (--clientProcessId) is gone; exiting\n";
        llvm::errs().flush();
        std::_Exit(1);
      }
    }
  }).detach();
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  // LLVM's targets, for cross-compile-targets and launches on an ORC
  // executor, once (Targets.h); the recording worker too.
  executor_studio::initializeTargets();
  // A recording worker the server started (RecordingWorker.h).
  if (std::optional<int> worker = executor_studio::runRecordWorkerIfAsked(argc, argv))
    return *worker;
  cl::HideUnrelatedOptions(serverCategory);
  executor_studio::addVersionPrinter();
  cl::ParseCommandLineOptions(
      argc, argv,
      "Executor Studio language server: LSP for .mlir with the executor and "
      "catalyst dialects, on stdin and stdout\n");
  executor_studio::registerAllPasses();

  if (StringRef transport = unsupportedTransport(); !transport.empty()) {
    llvm::errs() << "executor-lsp-server: " << transport
                 << " is not supported: the server speaks LSP on stdin and "
                    "stdout only (--stdio; TransportKind.stdio in "
                    "vscode-languageclient)\n";
    return 2;
  }
  if (clientProcessId.getNumOccurrences()) {
    if (clientProcessId <= 0) {
      llvm::errs() << "executor-lsp-server: --clientProcessId=" << clientProcessId
                   << " is not a process id\n";
      return 2;
    }
    if (processGone(clientProcessId)) {
      llvm::errs() << "executor-lsp-server: the client process "
                   << clientProcessId
                   << " (--clientProcessId) does not exist\n";
      return 1;
    }
    watchClientProcess(clientProcessId);
  }

  if (recordingCacheMB.getNumOccurrences())
    executor_studio::setRecordingCacheLimit(size_t(recordingCacheMB) << 20);
  lsp::Logger::setLogLevel(logLevel);
  if (litTest)
    lsp::URIForFile::registerSupportedScheme("test");
  sys::ChangeStdinToBinary();

  serverOptions.workerExecutable =
      sys::fs::getMainExecutable(argv[0], reinterpret_cast<void *>(&main));

  es::TransportOptions transport;
  transport.delimitedInput = litTest;
  transport.prettyOutput = litTest || prettyOutput;
  bool shutdown = es::runServer(stdin, llvm::outs(), transport, serverOptions);
  // LSP: exit code 0 only when `shutdown` came before `exit`.
  return shutdown ? 0 : 1;
}
