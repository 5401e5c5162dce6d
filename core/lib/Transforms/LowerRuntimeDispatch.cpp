//===- LowerRuntimeDispatch.cpp - runtime_call -> executor.call -*- C++ -*-===//
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"
#include "ExecutorStudio/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace catalyst {
#define GEN_PASS_DEF_LOWERRUNTIMEDISPATCHPASS
#include "ExecutorStudio/Transforms/Passes.h.inc"
} // namespace catalyst

using namespace mlir;
using namespace catalyst;

namespace {
/// Width of a `str` parameter on the wire, terminator included.
constexpr int64_t kStringWidth = 256;

Type getDeclaredType(MLIRContext *ctx, StringRef param) {
  if (param == "ptr")
    return IntegerType::get(ctx, 64);
  if (param == "f16")
    return Float16Type::get(ctx);
  if (param == "f32")
    return Float32Type::get(ctx);
  if (param == "f64")
    return Float64Type::get(ctx);
  unsigned width = 0;
  param.drop_front().getAsInteger(10, width);
  return IntegerType::get(ctx, width);
}

/// Converts `value` to `type` (the declared C width).
Value convertScalar(OpBuilder &b, Location loc, Value value, Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  if (isa<LLVM::LLVMPointerType>(from))
    return LLVM::PtrToIntOp::create(b, loc, type, value);
  if (from.isIndex())
    return arith::IndexCastOp::create(b, loc, type, value);
  if (auto fromFloat = dyn_cast<FloatType>(from)) {
    auto toFloat = cast<FloatType>(type);
    if (fromFloat.getWidth() == toFloat.getWidth()) {
      // Same width, other format (bf16 -> f16): through f32.
      Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
      return toFloat.isF32() ? wide
                             : arith::TruncFOp::create(b, loc, type, wide);
    }
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, type, value);
    return arith::TruncFOp::create(b, loc, type, value);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = type.getIntOrFloatBitWidth();
  if (fromWidth < toWidth)
    return arith::ExtSIOp::create(b, loc, type, value);
  return arith::TruncIOp::create(b, loc, type, value);
}

struct LowerRuntimeDispatchPass
    : public catalyst::impl::LowerRuntimeDispatchPassBase<LowerRuntimeDispatchPass> {
  void runOnOperation() override;

private:
  /// An executor.open of `address` at the start of `func`'s body, reused
  /// when there is one already.
  Value getSession(FunctionOpInterface func, StringRef address);
  LogicalResult lower(RuntimeCallOp call, StringRef address);

  llvm::DenseMap<std::pair<Operation *, StringAttr>, Value> sessions;
};
} // namespace

Value LowerRuntimeDispatchPass::getSession(FunctionOpInterface func,
                                           StringRef address) {
  StringAttr key = StringAttr::get(func->getContext(), address);
  auto it = sessions.find({func.getOperation(), key});
  if (it != sessions.end())
    return it->second;
  Block &entry = func.getFunctionBody().front();
  Value session;
  for (auto open : entry.getOps<executor::OpenOp>())
    if (open.getAddress() == address) {
      // Hoist it to the start so it dominates every call in the function.
      open->moveBefore(&entry, entry.begin());
      session = open.getSession();
      break;
    }
  if (!session) {
    OpBuilder b(&entry, entry.begin());
    session = executor::OpenOp::create(
                  b, func.getLoc(),
                  executor::SessionType::get(func->getContext()), key)
                  .getSession();
  }
  sessions[{func.getOperation(), key}] = session;
  return session;
}

LogicalResult LowerRuntimeDispatchPass::lower(RuntimeCallOp call,
                                              StringRef address) {
  auto func = call->getParentOfType<FunctionOpInterface>();
  if (!func)
    return call.emitOpError("must be inside a function to be dispatched");
  Value session = getSession(func, address);

  OpBuilder b(call);
  Location loc = call.getLoc();
  MLIRContext *ctx = call.getContext();
  SmallVector<Value> inputs;
  SmallVector<Type> resultTypes;
  unsigned operand = 0, string = 0;
  for (StringRef param : call.getCParams().getAsValueRange<StringAttr>()) {
    if (param == "str") {
      StringRef text =
          cast<StringAttr>((*call.getCStrings())[string++]).getValue();
      if (static_cast<int64_t>(text.size()) >= kStringWidth)
        return call.emitOpError("c_strings entry of ")
               << text.size() << " bytes does not fit the " << kStringWidth
               << "-byte string slot of the executor wire layout (at most "
               << kStringWidth - 1 << " bytes and a NUL)";
      SmallVector<int8_t> bytes(kStringWidth, 0);
      llvm::copy(text, bytes.begin());
      auto type = RankedTensorType::get({kStringWidth}, b.getI8Type());
      inputs.push_back(arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, llvm::ArrayRef(bytes))));
      continue;
    }
    Value value = call.getArgs()[operand++];
    if (param == "out") {
      resultTypes.push_back(value.getType());
      continue;
    }
    Type declared = getDeclaredType(ctx, param);
    Value scalar = convertScalar(b, loc, value, declared);
    inputs.push_back(tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({1}, declared), scalar));
  }
  if (call.hasDeclaredResult())
    resultTypes.insert(resultTypes.begin(),
                       RankedTensorType::get({1}, call.getResult(0).getType()));

  auto exec = executor::CallOp::create(b, loc, resultTypes, session,
                                       call.getCalleeAttr(), inputs,
                                       /*num_input_args=*/IntegerAttr());
  SmallVector<Value> replacements(exec.getResults());
  if (call.hasDeclaredResult()) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    replacements[0] =
        tensor::ExtractOp::create(b, loc, exec.getResult(0), zero);
  }
  call->replaceAllUsesWith(replacements);
  call->erase();
  return success();
}

void LowerRuntimeDispatchPass::runOnOperation() {
  sessions.clear();
  SmallVector<RuntimeCallOp> calls;
  getOperation()->walk([&](RuntimeCallOp call) {
    if (call.getDispatch())
      calls.push_back(call);
  });
  if (calls.empty())
    return;

  SmallVector<std::string> executors = collectExecutorAddresses(getOperation());
  bool failed = false;
  for (RuntimeCallOp call : calls) {
    FailureOr<std::string> address =
        resolveDispatch(call, *call.getDispatch(), executors, "dispatch");
    if (mlir::failed(address)) {
      failed = true;
      continue;
    }
    if (mlir::failed(lower(call, *address)))
      failed = true;
  }
  if (failed)
    signalPassFailure();
}
