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

Recording executor_studio::recordPipeline(StringRef source, StringRef bufferName,
                                          const RecordOptions &options) {
  static bool registered = [] {
    registerAllPasses();
    return true;
  }();
  (void)registered;
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

