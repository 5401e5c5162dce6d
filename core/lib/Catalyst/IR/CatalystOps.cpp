//===- CatalystOps.cpp - catalyst subset operations -------------*- C++ -*-===//
#include "Catalyst/IR/CatalystOps.h"
#include "Catalyst/IR/CatalystAttributes.h"
#include "Executor/IR/ExecutorOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace catalyst;

//===----------------------------------------------------------------------===//
// LaunchKernelOp
//===----------------------------------------------------------------------===//

/// The host and a target module bufferize separately, so a tensor on one
/// side matches a memref of the same shape and element type on the other.
static bool kernelTypeMatches(Type declared, Type actual) {
  if (declared == actual)
    return true;
  auto a = dyn_cast<ShapedType>(declared);
  auto b = dyn_cast<ShapedType>(actual);
  if (!a || !b || !a.hasRank() || !b.hasRank())
    return false;
  bool tensorAndMemref = (isa<TensorType>(a) && isa<MemRefType>(b)) ||
                         (isa<MemRefType>(a) && isa<TensorType>(b));
  return tensorAndMemref && a.getShape() == b.getShape() &&
         a.getElementType() == b.getElementType();
}

static bool kernelTypesMatch(ArrayRef<Type> declared, ArrayRef<Type> actual) {
  if (declared.size() != actual.size())
    return false;
  for (auto [d, a] : llvm::zip_equal(declared, actual))
    if (!kernelTypeMatches(d, a))
      return false;
  return true;
}

LogicalResult
LaunchKernelOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  SymbolRefAttr callee = getCallee();
  if (callee.getNestedReferences().size() != 1)
    return emitOpError("callee ")
           << callee
           << " must name an entry of a nested target module as "
              "@module::@entry";
  Operation *root =
      symbolTable.lookupNearestSymbolFrom(*this, callee.getRootReference());
  if (!root)
    return success(); // Unresolved: the module may live elsewhere.
  auto module = dyn_cast<ModuleOp>(root);
  if (!module)
    return emitOpError("callee ")
           << callee << ": @" << callee.getRootReference().getValue()
           << " is a '" << root->getName()
           << "', not a nested builtin.module";
  Operation *leaf =
      symbolTable.lookupSymbolIn(module, callee.getLeafReference());
  if (!leaf)
    return emitOpError("callee ")
           << callee << ": module @" << callee.getRootReference().getValue()
           << " has no function @" << callee.getLeafReference().getValue();
  auto func = dyn_cast<func::FuncOp>(leaf);
  if (!func)
    return emitOpError("callee ")
           << callee << " is a '" << leaf->getName() << "', not a func.func";
  FunctionType type = func.getFunctionType();
  SmallVector<Type> inputs(getInputs().getTypes());
  SmallVector<Type> results(getResultTypes());
  if (!kernelTypesMatch(type.getInputs(), inputs))
    return emitOpError("operand types (")
           << inputs << ") do not match the inputs (" << type.getInputs()
           << ") of " << callee;
  if (!kernelTypesMatch(type.getResults(), results))
    return emitOpError("result types (")
           << results << ") do not match the results (" << type.getResults()
           << ") of " << callee;
  return success();
}

//===----------------------------------------------------------------------===//
// RuntimeCallOp
//===----------------------------------------------------------------------===//

namespace {
enum class ParamKind { Scalar, Ptr, Str, Out, Invalid };
} // namespace

static ParamKind classifyParam(StringRef param) {
  return llvm::StringSwitch<ParamKind>(param)
      .Cases({"i1", "i8", "i16", "i32", "i64"}, ParamKind::Scalar)
      .Cases({"f16", "f32", "f64"}, ParamKind::Scalar)
      .Case("ptr", ParamKind::Ptr)
      .Case("str", ParamKind::Str)
      .Case("out", ParamKind::Out)
      .Default(ParamKind::Invalid);
}

unsigned RuntimeCallOp::getNumOutParams() {
  return llvm::count_if(getCParams().getAsValueRange<StringAttr>(),
                        [](StringRef p) { return p == "out"; });
}

LogicalResult RuntimeCallOp::verify() {
  if (getCallee().empty())
    return emitOpError("callee is empty; name the C function to call");
  unsigned operand = 0, strings = 0, outs = 0;
  SmallVector<Type> outTypes;
  for (auto [index, param] :
       llvm::enumerate(getCParams().getAsValueRange<StringAttr>())) {
    ParamKind kind = classifyParam(param);
    if (kind == ParamKind::Invalid)
      return emitOpError("c_params[")
             << index << "] = \"" << param
             << "\" is not a parameter kind; use i1, i8, i16, i32, i64, f16, "
                "f32, f64, ptr, str or out";
    if (kind == ParamKind::Str) {
      ++strings;
      continue;
    }
    if (operand >= getArgs().size())
      return emitOpError("c_params[")
             << index << "] = \"" << param << "\" has no operand: "
             << getArgs().size() << " operand(s) for the "
             << "non-str parameters";
    Type type = getArgs()[operand++].getType();
    switch (kind) {
    case ParamKind::Scalar: {
      bool wantFloat = param.starts_with("f");
      bool ok = wantFloat ? isa<FloatType>(type)
                          : (type.isSignlessInteger() || type.isIndex());
      if (!ok)
        return emitOpError("operand #")
               << (operand - 1) << " of type " << type
               << " does not fit c_params[" << index << "] = \"" << param
               << "\"";
      break;
    }
    case ParamKind::Ptr:
      if (!type.isInteger(64) && !type.isIndex() &&
          !isa<LLVM::LLVMPointerType>(type))
        return emitOpError("operand #")
               << (operand - 1) << " of type " << type
               << " does not fit c_params[" << index
               << "] = \"ptr\"; pass an i64, index or !llvm.ptr";
      break;
    case ParamKind::Out: {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape())
        return emitOpError("operand #")
               << (operand - 1) << " of type " << type
               << " for c_params[" << index
               << "] = \"out\" must be a statically shaped ranked tensor "
                  "(the shape of the buffer the callee fills)";
      ++outs;
      outTypes.push_back(type);
      break;
    }
    default:
      break;
    }
  }
  if (operand != getArgs().size())
    return emitOpError("has ")
           << getArgs().size() << " operands but c_params consumes "
           << operand << "; every operand needs a parameter";
  size_t numStrings = getCStrings() ? getCStrings()->size() : 0;
  if (strings != numStrings)
    return emitOpError("c_params has ")
           << strings << " \"str\" parameter(s) but c_strings has "
           << numStrings;
  if (getNumResults() != outs && getNumResults() != outs + 1)
    return emitOpError("has ")
           << getNumResults() << " results; expected " << outs << " or "
           << outs + 1
           << " (the optional C result, then one per \"out\" parameter)";
  unsigned first = getNumResults() - outs;
  if (first == 1) {
    Type declared = getResult(0).getType();
    if (!declared.isIntOrIndexOrFloat())
      return emitOpError("declared result of type ")
             << declared << " must be a scalar integer or float";
  }
  for (unsigned i = 0; i < outs; ++i)
    if (getResult(first + i).getType() != outTypes[i])
      return emitOpError("result #")
             << first + i << " of type " << getResult(first + i).getType()
             << " must match its \"out\" operand type " << outTypes[i];
  if (std::optional<StringRef> dispatch = getDispatch()) {
    if (!dispatch->empty()) {
      std::string problem = executor::validateAddress(*dispatch);
      if (!problem.empty())
        return emitOpError("dispatch address \"")
               << *dispatch << "\" " << problem
               << " (or write \"\" for the program's single executor)";
    }
  }
  return success();
}

#define GET_OP_CLASSES
#include "Catalyst/IR/CatalystOps.cpp.inc"
