//===- Retarget.cpp - a document with a target compiled for another triple ===//
#include "StudioModel/Retarget.h"
#include "ParseDocument.h"
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/TargetTripleEdit.h"
#include "ExecutorStudio/Registration/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

namespace executor_studio::gui {

std::string otherTripleNote(const Kernel &kernel, std::string_view executorTriple) {
  if (executorTriple.empty() || kernel.triple.empty() ||
      !catalyst::isOtherArchitecture(kernel.triple,
                                     llvm::StringRef(executorTriple.data(),
                                                     executorTriple.size())))
    return "";
  return "compiled for " + kernel.triple + ", the executor runs " +
         std::string(executorTriple);
}

bool setTargetTriple(std::string_view source, std::string_view bufferName,
                     std::string_view module, std::string_view triple,
                     std::string &result, std::string &error) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  llvm::StringRef text(source.data(), source.size());
  OwningOpRef<ModuleOp> root = parseDocument(ctx, source, bufferName, error);
  if (!root)
    return false;
  ModuleOp target;
  root->walk([&](ModuleOp candidate) {
    if (catalyst::isTarget(candidate) &&
        catalyst::getTargetName(candidate) == module)
      target = candidate;
  });
  if (!target) {
    error = "the document has no target module @" + std::string(module);
    return false;
  }
  auto edit = catalyst::getSetTargetTripleEdit(
      text, target, llvm::StringRef(triple.data(), triple.size()));
  if (!edit) {
    error = llvm::toString(edit.takeError());
    return false;
  }
  result = std::string(source);
  result.replace(edit->offset, edit->length, edit->text);
  return true;
}

} // namespace executor_studio::gui
