//===- StructuralDiffText.cpp - align two snapshots' names ------*- C++ -*-===//
//
// The text entry point of the structural diff: it parses with every dialect
// executor-opt registers, so it lives with the registration.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/InputLimits.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Pipeline/StructuralDiff.h"
#include "ExecutorStudio/Registration/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <optional>

using namespace mlir;

llvm::Expected<executor_studio::AlignedSnapshots>
executor_studio::alignSnapshots(llvm::StringRef left, llvm::StringRef right) {
  for (auto [text, which] : {std::pair{left, "left"}, std::pair{right, "right"}})
    if (findExcessiveNesting(text))
      return llvm::createStringError(
          nestingRefusal(std::string("the ") + which + " snapshot", "it is not parsed"));
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerAllDialects(*r);
    return r;
  }();
  std::optional<llvm::Expected<AlignedSnapshots>> result;
  runOnParserStack([&] {
    MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(true);
    result.emplace(alignSnapshots(context, left, right));
  });
  return std::move(*result);
}
