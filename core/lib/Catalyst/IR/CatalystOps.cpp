//===- CatalystOps.cpp - catalyst subset operations -------------*- C++ -*-===//
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace catalyst;

//===----------------------------------------------------------------------===//
// LaunchKernelOp
//===----------------------------------------------------------------------===//

bool catalyst::kernelTypeMatches(Type declared, Type actual) {
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

bool catalyst::kernelTypesMatch(ArrayRef<Type> declared, ArrayRef<Type> actual) {
  if (declared.size() != actual.size())
    return false;
  for (auto [d, a] : llvm::zip_equal(declared, actual))
    if (!kernelTypeMatches(d, a))
      return false;
  return true;
}

Operation *
LaunchKernelOp::lookupCalleeRoot(SymbolTableCollection *symbolTables) {
  SymbolRefAttr callee = getCallee();
  if (callee.getNestedReferences().size() != 1)
    return nullptr;
  // The target module may be declared in any enclosing symbol table (a
  // launch from inside one nested module into a sibling).
  for (Operation *scope = SymbolTable::getNearestSymbolTable(*this); scope;
       scope = scope->getParentOp()
                   ? SymbolTable::getNearestSymbolTable(scope->getParentOp())
                   : nullptr)
    if (Operation *root =
            symbolTables
                ? symbolTables->lookupSymbolIn(scope, callee.getRootReference())
                : SymbolTable::lookupSymbolIn(scope, callee.getRootReference()))
      return root;
  return nullptr;
}

ModuleOp LaunchKernelOp::getCalleeModule() {
  return dyn_cast_or_null<ModuleOp>(lookupCalleeRoot());
}

Operation *LaunchKernelOp::getCalleeFunction() {
  ModuleOp module = getCalleeModule();
  return module ? SymbolTable::lookupSymbolIn(module, getCallee().getLeafReference())
                : nullptr;
}

SmallVector<SymbolRefAttr> catalyst::suggestCallees(LaunchKernelOp launch) {
  struct Suggestion {
    StringRef root, leaf;
    unsigned cost;
  };
  SmallVector<Suggestion> best;
  SymbolRefAttr callee = launch.getCallee();
  if (callee.getNestedReferences().size() != 1 || launch.getCalleeFunction())
    return {};
  StringRef root = callee.getRootReference().getValue();
  StringRef leaf = callee.getLeafReference().getValue();
  unsigned limit = std::max<unsigned>(2, (root.size() + leaf.size()) / 4);
  Operation *top = launch;
  while (top->getParentOp())
    top = top->getParentOp();
  top->walk([&](ModuleOp module) {
    std::optional<StringRef> name = module.getSymName();
    if (!name || !(isTarget(module) || hasDispatch(module)))
      return;
    unsigned rootCost = root.edit_distance(*name);
    if (rootCost > limit)
      return;
    for (auto function : module.getBody()->getOps<FunctionOpInterface>()) {
      unsigned cost = rootCost + leaf.edit_distance(function.getName());
      if (cost == 0 || cost > limit)
        continue;
      if (!best.empty() && cost < best.front().cost)
        best.clear();
      if (best.empty() || cost == best.front().cost)
        best.push_back({*name, function.getName(), cost});
    }
  });
  llvm::sort(best, [](const Suggestion &a, const Suggestion &b) {
    return std::tie(a.root, a.leaf) < std::tie(b.root, b.leaf);
  });
  SmallVector<SymbolRefAttr> result;
  for (const Suggestion &s : llvm::ArrayRef(best).take_front(3))
    result.push_back(SymbolRefAttr::get(
        launch.getContext(), s.root,
        {FlatSymbolRefAttr::get(launch.getContext(), s.leaf)}));
  return result;
}

/// "; did you mean @a::@b or @c::@d?" for a callee that does not resolve but
/// is a few edits from a kernel; else nothing.
static InFlightDiagnostic &&suggestCallee(InFlightDiagnostic &&diag,
                                          LaunchKernelOp launch) {
  SmallVector<SymbolRefAttr> suggestions = suggestCallees(launch);
  for (auto [index, s] : llvm::enumerate(suggestions))
    diag << (index == 0                        ? "; did you mean "
             : index + 1 == suggestions.size() ? " or "
                                               : ", ")
         << s;
  if (!suggestions.empty())
    diag << "?";
  return std::move(diag);
}

LogicalResult
LaunchKernelOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  SymbolRefAttr callee = getCallee();
  if (callee.getNestedReferences().size() != 1)
    return emitOpError("callee ")
           << callee
           << " must name an entry of a nested target module as "
              "@module::@entry";
  Operation *root = lookupCalleeRoot(&symbolTable);
  if (!root)
    return suggestCallee(
        emitOpError("callee ")
            << callee << ": there is no module @"
            << callee.getRootReference().getValue()
            << " in scope; launches name a nested builtin.module tagged "
               "catalyst.target (or dispatched with catalyst.dispatch)",
        *this);
  auto module = dyn_cast<ModuleOp>(root);
  if (!module)
    return emitOpError("callee ")
           << callee << ": @" << callee.getRootReference().getValue()
           << " is a '" << root->getName()
           << "', not a nested builtin.module";
  if (!isTarget(module) && !hasDispatch(module))
    return emitOpError("callee ")
           << callee << ": module @" << callee.getRootReference().getValue()
           << " is neither a catalyst.target nor dispatched, so nothing "
              "compiles it for a launch; add catalyst.target = {} to it (or "
              "catalyst.dispatch with catalyst.object_file for an object "
              "compiled elsewhere)";
  Operation *leaf =
      symbolTable.lookupSymbolIn(module, callee.getLeafReference());
  if (!leaf)
    return suggestCallee(emitOpError("callee ")
                             << callee << ": module @"
                             << callee.getRootReference().getValue()
                             << " has no function @"
                             << callee.getLeafReference().getValue(),
                         *this);
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

//===----------------------------------------------------------------------===//
// CustomCallOp
//===----------------------------------------------------------------------===//

std::optional<StringRef> CustomCallOp::getDispatch() {
  DictionaryAttr config = getBackendConfigAttr();
  if (!config)
    return std::nullopt;
  if (auto dispatch = config.getAs<StringAttr>("dispatch"))
    return dispatch.getValue();
  return std::nullopt;
}

LogicalResult CustomCallOp::verify() {
  if (getCallTargetName().empty())
    return emitOpError("call_target_name is empty; name the function to call");
  if (getNumberOriginalArg()) {
    // An I32Attr is signless: read it as signed to reject negatives.
    int64_t value = getNumberOriginalArgAttr().getValue().getSExtValue();
    if (value < 0 || value > static_cast<int64_t>(getInputs().size()))
      return emitOpError("number_original_arg = ")
             << value << " must lie in [0, " << getInputs().size()
             << "] (the number of operands)";
  }
  if (DictionaryAttr config = getBackendConfigAttr()) {
    if (Attribute dispatch = config.get("dispatch")) {
      auto address = dyn_cast<StringAttr>(dispatch);
      if (!address)
        return emitOpError("backend_config dispatch must be a string, "
                           "\"host:port\" or \"\" for the program's only "
                           "executor, not ")
               << dispatch;
      if (!address.getValue().empty()) {
        std::string problem = executor::validateAddress(address.getValue());
        if (!problem.empty())
          return emitOpError("backend_config dispatch address \"")
                 << address.getValue() << "\" " << problem
                 << " (or write \"\" for the program's single executor)";
      }
    }
  }
  return success();
}

void CustomCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // The callee is external: it may read every operand, writes the output
  // buffers, and may have effects of its own.
  unsigned numInputs = getNumberOriginalArg().value_or(getInputs().size());
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    effects.emplace_back(MemoryEffects::Read::get(), &operand,
                         SideEffects::DefaultResource::get());
    if (operand.getOperandNumber() >= numInputs)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

#define GET_OP_CLASSES
#include "ExecutorStudio/Catalyst/IR/CatalystOps.cpp.inc"
