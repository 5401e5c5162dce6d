//===- Pipelines.cpp - the default pipeline and its stages ------*- C++ -*-===//
#include "ExecutorStudio/Transforms/Passes.h"
#include "ExecutorStudio/Pipeline/PassOptionHelp.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// The host's and each target's lowering of bufferized IR to LLVM.
constexpr llvm::StringLiteral kLowerToLLVM =
    "func.func(convert-linalg-to-loops),expand-strided-metadata,lower-affine,"
    "convert-scf-to-cf,convert-math-to-llvm,convert-arith-to-llvm,"
    "convert-index-to-llvm,finalize-memref-to-llvm,convert-cf-to-llvm,"
    "convert-func-to-llvm,reconcile-unrealized-casts";

constexpr llvm::StringLiteral kBufferize =
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map}";

struct DefaultPipelineCLOptions
    : public PassPipelineOptions<DefaultPipelineCLOptions> {
  Option<std::string> workspace{
      *this, "workspace",
      llvm::cl::desc("Directory for the target objects (cross-compile-targets)")};
  Option<std::string> saveIrAfterEach{
      *this, "save-ir-after-each",
      llvm::cl::desc("Forwarded to cross-compile-targets")};
  Option<bool> debug{*this, "debug",
                     llvm::cl::desc("Forwarded to cross-compile-targets: "
                                    "targets with debug info")};
  Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::init(2),
      llvm::cl::desc("Forwarded to cross-compile-targets: the targets' LLVM "
                     "optimisation level")};
  Option<std::string> executorTriple{
      *this, "executor-triple",
      llvm::cl::desc("Forwarded to cross-compile-targets: the triple every "
                     "dispatched target is compiled for")};
};
} // namespace

std::string catalyst::quotePassOption(llvm::StringRef value) {
  if (value.find_first_of(" ,{}=") == llvm::StringRef::npos)
    return value.str();
  return "\"" + value.str() + "\"";
}

std::string catalyst::getDefaultTargetPipelineText() {
  return ("builtin.module(" + kBufferize + "," + kLowerToLLVM + ")").str();
}

std::string
catalyst::getDefaultPipelineText(const DefaultPipelineOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "builtin.module(lower-runtime-dispatch," << kBufferize
     << ",cross-compile-targets{workspace=" << quotePassOption(options.workspace);
  if (!options.saveIrAfterEach.empty())
    os << " save-ir-after-each=" << options.saveIrAfterEach;
  if (options.debug)
    os << " debug=true";
  if (options.optLevel != 2)
    os << " opt-level=" << options.optLevel;
  if (options.jobs != 0)
    os << " jobs=" << options.jobs;
  if (!options.executorTriple.empty())
    os << " executor-triple=" << quotePassOption(options.executorTriple);
  os << "},dispatch-executor-targets,convert-executor-to-llvm," << kLowerToLLVM
     << ")";
  return text;
}

void catalyst::buildLowerToLLVMPipeline(OpPassManager &pm) {
  // The text is a constant: parsing it cannot fail once the passes are
  // registered, which registerAllPasses guarantees.
  if (failed(parsePassPipeline(kLowerToLLVM, pm, llvm::errs())))
    llvm::report_fatal_error("executor-lower-to-llvm: passes not registered");
}

void catalyst::buildDefaultPipeline(OpPassManager &pm,
                                    const DefaultPipelineOptions &options) {
  std::string text = getDefaultPipelineText(options);
  // Strip the builtin.module( ... ) anchor: `pm` is anchored already.
  llvm::StringRef body(text);
  body = body.drop_front(strlen("builtin.module(")).drop_back();
  if (failed(parsePassPipeline(body, pm, llvm::errs())))
    llvm::report_fatal_error("executor-default-pipeline: passes not registered");
}

void catalyst::registerExecutorStudioPipelines() {
  // Its options, for "did you mean" (Pipeline/PassOptionHelp.h).
  executor_studio::registerPipelineOptions("executor-default-pipeline",
                                           DefaultPipelineCLOptions());
  PassPipelineRegistration<DefaultPipelineCLOptions>(
      "executor-default-pipeline",
      "The whole executor pipeline: lower-runtime-dispatch, one-shot "
      "bufferization, cross-compile-targets, dispatch-executor-targets, "
      "convert-executor-to-llvm and the lowering of the host to LLVM",
      [](OpPassManager &pm, const DefaultPipelineCLOptions &cl) {
        DefaultPipelineOptions options;
        options.workspace = cl.workspace;
        options.saveIrAfterEach = cl.saveIrAfterEach;
        options.debug = cl.debug;
        options.optLevel = cl.optLevel;
        options.executorTriple = cl.executorTriple;
        buildDefaultPipeline(pm, options);
      });
  PassPipelineRegistration<>(
      "executor-lower-to-llvm",
      "The standard lowering of bufferized IR to the LLVM dialect",
      [](OpPassManager &pm) { buildLowerToLLVMPipeline(pm); });
}
