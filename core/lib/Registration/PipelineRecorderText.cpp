//===- PipelineRecorderText.cpp - record a pipeline on text -----*- C++ -*-===//
//
// The text entry point of the recorder: it parses with every dialect and
// pass that executor-opt registers, so it lives with the registration.
//
//===----------------------------------------------------------------------===//
#include "Pipeline/PipelineRecorder.h"
#include "Registration/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace executor_studio;

namespace {
void registerPassesOnce() {
  static bool registered = [] {
    registerAllPasses();
    return true;
  }();
  (void)registered;
}
} // namespace

Recording executor_studio::recordPipeline(StringRef source, StringRef bufferName,
                                          const RecordOptions &options) {
  registerPassesOnce();
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.allowUnregisteredDialects(options.allowUnregisteredDialects);
  ctx.printOpOnDiagnostic(false);

  Recording failedParse;
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
      failedParse.diagnostics.push_back(convertDiagnostic(diag));
      return success();
    });
    ParserConfig config(&ctx);
    module = parseSourceString<ModuleOp>(source, config, bufferName);
  }
  if (!module)
    return failedParse;
  return recordPipeline(module->getOperation(), options);
}


Recording executor_studio::recordPipelineFrom(StringRef text,
                                              StringRef bufferName,
                                              const RecordOptions &options,
                                              int afterStep) {
  registerPassesOnce();
  auto rest = remainingPipeline(options.pipeline, afterStep);
  if (!rest) {
    Recording failed;
    RecordedDiagnostic diag;
    diag.message = llvm::toString(rest.takeError());
    failed.diagnostics.push_back(std::move(diag));
    return failed;
  }
  RecordOptions restOptions = options;
  restOptions.pipeline = *rest;
  Recording recording = recordPipeline(text, bufferName, restOptions);
  recording.firstStep = static_cast<unsigned>(afterStep + 1);
  for (Snapshot &snapshot : recording.snapshots)
    snapshot.index += recording.firstStep;
  return recording;
}
