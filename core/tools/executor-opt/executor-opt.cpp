//===- executor-opt.cpp - mlir-opt with the executor dialects ---*- C++ -*-===//
//
// MlirOptMain with our dialects and passes. The MLIR parser, printer and
// verifier recurse once per nesting level, so the tool checks the nesting of
// its input before parsing (a clear error at the place where it gets too
// deep, not a stack overflow) and runs on a thread with a large stack.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/InputLimits.h"
#include "ExecutorStudio/Pipeline/PassOptionHelp.h"
#include "ExecutorStudio/Registration/Registration.h"
#include "ExecutorStudio/Support/Targets.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <optional>
#include <tuple>

namespace {
int run(int argc, char **argv, llvm::StringRef inputFilename,
        llvm::StringRef outputFilename, mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Nothing to parse: MlirOptMain prints what was asked.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  llvm::InitLLVM y(argc, argv);
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (std::optional<size_t> deep =
          executor_studio::findExcessiveNesting(file->getBuffer())) {
    llvm::SourceMgr sourceMgr;
    const char *at = file->getBufferStart() + *deep;
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    sourceMgr.PrintMessage(
        llvm::errs(), llvm::SMLoc::getFromPointer(at),
        llvm::SourceMgr::DK_Error,
        executor_studio::nestingRefusal("the input",
                                        "executor-opt does not parse it"));
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  // LLVM's targets, for cross-compile-targets, once (Targets.h).
  executor_studio::initializeTargets();
  mlir::DialectRegistry registry;
  executor_studio::registerAllDialects(registry);
  executor_studio::registerAllPasses();
  executor_studio::addVersionPrinter();
  // MLIR's flags first (one per pass among them): the names the messages
  // below suggest from.
  mlir::MlirOptMainConfig::registerCLOptions(registry);
  // A misspelled pass or pass option: say which pass, the nearest spelling
  // and the options it takes (MLIR says only "no such option", or that the
  // name is not registered).
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (!arg.consume_front("-"))
      continue;
    arg.consume_front("-");
    auto [name, value] = arg.split('=');
    std::string problem =
        name == "pass-pipeline" || name == "p"
            ? executor_studio::explainPipelineOptions(value)
            : executor_studio::explainPassOptions(name, value);
    if (!problem.empty()) {
      llvm::errs() << "executor-opt: error: " << problem << "\n";
      return 1;
    }
  }
  // Diagnostics point at their line; the generic form of the op (a whole
  // target module, or the program) adds pages and nothing else, so it is
  // off unless asked for, as in executor-compile and the language server.
  mlir::registerMLIRContextCLOptions();
  auto &options = llvm::cl::getRegisteredOptions();
  if (auto *printOp = static_cast<llvm::cl::opt<bool> *>(
          options.lookup("mlir-print-op-on-diagnostic")))
    printOp->setInitialValue(false);
  std::string inputFilename, outputFilename;
  std::tie(inputFilename, outputFilename) = mlir::registerAndParseCLIOptions(
      argc, argv, "Executor Studio optimizer driver\n", registry);
  int result = 1;
  executor_studio::runOnParserStack(
      [&] { result = run(argc, argv, inputFilename, outputFilename, registry); });
  return result;
}
