//===- executor-lsp-server.cpp - the language server ------------*- C++ -*-===//
//
// LSP for .mlir files with every dialect of executor-opt, plus the executor
// pipeline's previews and diagnostics (DESIGN.md, "Language server").
//
//===----------------------------------------------------------------------===//
#include "ExecutorLsp/PipelineWorker.h"
#include "ExecutorLsp/Server.h"

#include "Registration/Registration.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace llvm;
namespace es = executor_studio::lsp;

namespace {
cl::OptionCategory serverCategory("executor-lsp-server options");

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
cl::opt<bool> allowUnregisteredDialects(
    "allow-unregistered-dialect",
    cl::desc("Let ops of dialects that are not registered through (their "
             "files still get navigation)"),
    cl::cat(serverCategory));
cl::opt<bool> pipelineDiagnostics(
    "pipeline-diagnostics",
    cl::desc("Run the default pipeline after each change and publish the "
             "errors of the pass that fails"),
    cl::init(true), cl::cat(serverCategory));
cl::opt<unsigned> pipelineDiagnosticsDelay(
    "pipeline-diagnostics-delay-ms",
    cl::desc("How long to wait after a change before that run"), cl::init(300),
    cl::cat(serverCategory));
cl::opt<unsigned>
    pipelineDiagnosticsTimeout("pipeline-diagnostics-timeout-ms",
                               cl::desc("How long that run may take"),
                               cl::init(20000), cl::cat(serverCategory));
cl::opt<unsigned>
    previewTimeout("preview-timeout-ms",
                   cl::desc("How long an executor/pipelinePreview may take"),
                   cl::init(30000), cl::cat(serverCategory));

cl::opt<unsigned> verifyThreads(
    "verify-threads",
    cl::desc("Threads that verify in parallel (0: one per core, 1: none)"),
    cl::init(0), cl::cat(serverCategory));

// The pipeline worker the server starts (see PipelineWorker.h).
cl::opt<bool> pipelineWorker("pipeline-worker", cl::Hidden);
cl::opt<std::string> workerInput("worker-input", cl::Hidden);
cl::opt<std::string> workerOutput("worker-output", cl::Hidden);
cl::opt<std::string> workerUri("worker-uri", cl::Hidden);
cl::opt<std::string> workerWorkspace("worker-workspace", cl::Hidden);
cl::opt<std::string> workerPipeline("worker-pipeline", cl::Hidden);
cl::opt<int> workerChunk("worker-chunk", cl::Hidden, cl::init(-1));
cl::opt<std::string> workerIR("worker-ir", cl::Hidden, cl::init("changes"));
} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  cl::HideUnrelatedOptions(serverCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Executor Studio language server: LSP for .mlir with the executor and "
      "catalyst dialects, on stdin and stdout\n");
  executor_studio::registerAllPasses();

  if (pipelineWorker) {
    // The server passes on whatever scheme its documents have.
    lsp::URIForFile::registerSupportedScheme("test");
    es::PipelineWorkerRequest request;
    request.inputPath = workerInput;
    request.outputPath = workerOutput;
    request.uri = workerUri;
    request.pipeline = workerPipeline;
    request.workspace = workerWorkspace;
    request.chunk = workerChunk;
    if (workerIR == "none") {
      request.irMode = es::PipelineWorkerRequest::IRMode::None;
    } else if (workerIR != "changes") {
      request.irMode = es::PipelineWorkerRequest::IRMode::Selected;
      SmallVector<StringRef> indices;
      StringRef(workerIR).split(indices, ',', -1, /*KeepEmpty=*/false);
      for (StringRef index : indices) {
        int value = 0;
        if (!index.trim().getAsInteger(10, value))
          request.irSnapshots.push_back(value);
      }
    }
    request.allowUnregisteredDialects = allowUnregisteredDialects;
    return es::runPipelineWorker(request);
  }

  lsp::Logger::setLogLevel(logLevel);
  if (litTest)
    lsp::URIForFile::registerSupportedScheme("test");
  sys::ChangeStdinToBinary();

  es::ServerOptions options;
  options.allowUnregisteredDialects = allowUnregisteredDialects;
  options.pipelineDiagnostics = pipelineDiagnostics;
  options.pipelineDiagnosticsDelayMs = pipelineDiagnosticsDelay;
  options.pipelineDiagnosticsTimeoutMs = pipelineDiagnosticsTimeout;
  options.previewTimeoutMs = previewTimeout;
  options.verifyThreads = verifyThreads;
  options.workerExecutable =
      sys::fs::getMainExecutable(argv[0], reinterpret_cast<void *>(&main));

  es::TransportOptions transport;
  transport.delimitedInput = litTest;
  transport.prettyOutput = litTest || prettyOutput;
  bool shutdown = es::runServer(stdin, llvm::outs(), transport, options);
  // LSP: exit code 0 only when `shutdown` came before `exit`.
  return shutdown ? 0 : 1;
}
