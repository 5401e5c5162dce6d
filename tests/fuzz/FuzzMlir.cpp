//===- FuzzMlir.cpp - the dialects' parser and verifier, and each pass ----===//
//
// The input is a .mlir file. It is parsed and verified with the executor
// and catalyst dialects (and every dialect the tools register); with
// FUZZ_PIPELINE (a textual pipeline) the parsed module then goes through
// that pass, with the verifier after it, as executor-opt runs it.
// Diagnostics are expected (most inputs are wrong); crashes, sanitizer
// reports and verifier failures the pass leaves behind are not.
//
// Inputs that nest deeper than the tools accept are refused first, as every
// front end does (Pipeline/InputLimits.h); the harness's own limit is lower
// so that the parser's recursion fits libFuzzer's stack with ASan's frames.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/InputLimits.h"
#include "ExecutorStudio/Registration/Registration.h"
#include "ExecutorStudio/Support/Targets.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <memory>

namespace {
mlir::DialectRegistry *registry;
std::unique_ptr<mlir::MLIRContext> context;
unsigned uses = 0;
std::string pipeline;

/// One context for many inputs (loading every dialect costs more than most
/// inputs), renewed now and then so that what it uniques does not pile up.
mlir::MLIRContext &freshEnoughContext() {
  if (!context || ++uses > 500) {
    context = std::make_unique<mlir::MLIRContext>(
        *registry, mlir::MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    uses = 0;
  }
  return *context;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // LLVM's targets, as the tools register them (Targets.h).
  executor_studio::initializeTargets();
  registry = new mlir::DialectRegistry();
  executor_studio::registerAllDialects(*registry);
  executor_studio::registerAllPasses();
#ifdef FUZZ_PIPELINE
  pipeline = FUZZ_PIPELINE;
  // cross-compile-targets writes its objects into a workspace.
  llvm::SmallString<128> workspace;
  if (!llvm::sys::fs::createUniqueDirectory("fuzz-workspace", workspace)) {
    std::string::size_type at = pipeline.find("WORKSPACE");
    if (at != std::string::npos)
      pipeline.replace(at, 9, workspace.str().str());
  }
#endif
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A NUL-terminated copy, as every MemoryBuffer the tools parse is: MLIR's
  // lexer ends at that NUL, and on libFuzzer's exact-size input it read on
  // past the end into the heap (an input ending inside an identifier,
  // `mmrref.allocD`, crashed at random; tests/fuzz/corpus now holds them).
  std::string copy(reinterpret_cast<const char *>(data), size);
  llvm::StringRef text(copy);
  if (executor_studio::findExcessiveNesting(text, 100))
    return 0;
  mlir::MLIRContext &ctx = freshEnoughContext();
  mlir::ScopedDiagnosticHandler quiet(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::ParserConfig config(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config);
  if (!module || pipeline.empty())
    return 0;
  mlir::PassManager pm(&ctx);
  pm.enableVerifier(true);
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm))) {
    llvm::errs() << "the harness's pipeline does not parse: " << pipeline
                 << "\n";
    std::abort();
  }
  (void)pm.run(*module);
  return 0;
}
