//===- Kernels.cpp - the kernels a document launches ----------------------===//
//
// Parses the document with the dialects every front end registers and reads
// the launches off the IR.
//
//===----------------------------------------------------------------------===//
#include "StudioModel/Kernels.h"
#include "ParseDocument.h"
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Catalyst/IR/TargetTripleEdit.h"
#include "ExecutorStudio/Registration/Registration.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace executor_studio::gui {

namespace {
template <typename T> std::string print(T value) {
  std::string s;
  llvm::raw_string_ostream os(s);
  value.print(os);
  return s;
}

unsigned lineOf(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file.getLine();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (unsigned line = lineOf(inner))
        return line;
  if (auto name = dyn_cast<NameLoc>(loc))
    return lineOf(name.getChildLoc());
  return 0;
}
} // namespace

bool Kernel::isNamed(std::string_view name) const {
  std::string text(name);
  auto strip = [](std::string s) {
    std::string out;
    for (char c : s)
      if (c != '@')
        out += c;
    return out;
  };
  text = strip(text);
  if (text == entry)
    return true;
  return text == module + "::" + entry;
}

OwningOpRef<ModuleOp> parseDocument(MLIRContext &ctx, std::string_view source,
                                    std::string_view bufferName,
                                    std::string &error) {
  std::string firstError;
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
      if (firstError.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
        firstError = diag.str();
      return success();
    });
    ParserConfig config(&ctx);
    // Copied: MLIR's lexer ends at the NUL after the text (a view need not
    // have one).
    std::string text(source);
    module = parseSourceString<ModuleOp>(text,
                                         config,
                                         llvm::StringRef(bufferName.data(), bufferName.size()));
  }
  if (!module)
    error = firstError.empty() ? "the document does not parse" : firstError;
  return module;
}

bool findKernels(std::string_view source, std::string_view bufferName,
                 std::string_view workspace, std::vector<Kernel> &kernels,
                 std::string &error) {
  kernels.clear();
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  OwningOpRef<ModuleOp> module = parseDocument(ctx, source, bufferName, error);
  if (!module) {
    return false;
  }
  llvm::StringSet<> seen;
  module->walk([&](catalyst::LaunchKernelOp launch) {
    Operation *op = launch;
    SymbolRefAttr callee = launch.getCallee();
    if (callee.getNestedReferences().size() != 1)
      return;
    Kernel kernel;
    kernel.module = callee.getRootReference().str();
    kernel.entry = callee.getLeafReference().str();
    if (!seen.insert(kernel.qualifiedName()).second)
      return;
    // Resolved as the verifier resolves it (a sibling module too).
    if (ModuleOp target = launch.getCalleeModule()) {
      kernel.dispatchAddress =
          catalyst::getDispatchAddress(target).value_or("");
      kernel.triple = catalyst::getEffectiveTargetTriple(target);
    }
    kernel.object = catalyst::getTargetObjectPath(
        workspace, kernel.module.empty() ? "unnamed" : kernel.module);

    Operation *function = launch.getCalleeFunction();
    llvm::SmallVector<Type> inputs, results;
    if (auto fn = dyn_cast_or_null<FunctionOpInterface>(function)) {
      inputs.append(fn.getArgumentTypes().begin(), fn.getArgumentTypes().end());
      results.append(fn.getResultTypes().begin(), fn.getResultTypes().end());
      kernel.line = lineOf(fn->getLoc());
    } else {
      inputs.append(op->getOperandTypes().begin(), op->getOperandTypes().end());
      results.append(op->getResultTypes().begin(), op->getResultTypes().end());
      kernel.line = lineOf(op->getLoc());
    }
    kernel.signature = print(FunctionType::get(&ctx, inputs, results));
    kernel.launchable = true;
    bool dispatched = !kernel.dispatchAddress.empty();
    for (Type t : inputs)
      kernel.inputs.push_back(describeArgument(t, /*isResult=*/false, dispatched));
    for (Type t : results)
      kernel.results.push_back(describeArgument(t, /*isResult=*/true, dispatched));
    for (const ShapedArg &arg : kernel.inputs)
      if (!arg.supported && kernel.launchable) {
        kernel.launchable = false;
        kernel.why = arg.why;
      }
    for (const ShapedArg &arg : kernel.results)
      if (!arg.supported && kernel.launchable) {
        kernel.launchable = false;
        kernel.why = arg.why;
      }
    if (!function && kernel.launchable) {
      kernel.launchable = false;
      kernel.why = kernel.qualifiedName() + " does not resolve to a function";
    }
    kernels.push_back(std::move(kernel));
  });
  return true;
}

} // namespace executor_studio::gui
