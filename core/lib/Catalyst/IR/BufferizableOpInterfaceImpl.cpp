//===- BufferizableOpInterfaceImpl.cpp - bufferize catalyst ops -*- C++ -*-===//
//
// catalyst.launch_kernel crosses into a separately compiled module, so its
// bufferization is conservative: every tensor operand is read and may be
// written by the kernel (one-shot bufferize copies it when it is used again),
// and every tensor result is a new buffer the kernel returns.
//
// catalyst.custom_call becomes destination-passing: its tensor inputs are
// read only, each tensor result becomes a new identity-layout buffer appended
// to the operands, and number_original_arg records where the inputs end.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace catalyst;

namespace {
/// The operands of a call with its tensor inputs bufferized: a non-tensor
/// input (not a `TensorT`) as it is, a tensor input's buffer as `fit` makes
/// it what the callee takes (a failure `fit` reports fails all).
template <typename TensorT>
FailureOr<SmallVector<Value>> bufferizeInputs(
    ValueRange inputs, RewriterBase &rewriter,
    const BufferizationOptions &options, BufferizationState &state,
    llvm::function_ref<FailureOr<Value>(Value input, TensorT type,
                                        Value buffer)>
        fit) {
  SmallVector<Value> operands;
  for (Value in : inputs) {
    auto tensorType = dyn_cast<TensorT>(in.getType());
    if (!tensorType) {
      operands.push_back(in);
      continue;
    }
    FailureOr<Value> buffer = getBuffer(rewriter, in, options, state);
    if (failed(buffer))
      return failure();
    FailureOr<Value> operand = fit(in, tensorType, *buffer);
    if (failed(operand))
      return failure();
    operands.push_back(*operand);
  }
  return operands;
}

/// A call into code bufferization cannot see: it reads every tensor operand,
/// writes them when `writesOperands`, and its tensor results are new
/// buffers that alias nothing.
template <typename Concrete, typename OpT, bool writesOperands>
struct OpaqueCallBufferization
    : public BufferizableOpInterface::ExternalModel<Concrete, OpT> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return writesOperands;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }
};

struct LaunchKernelBufferization
    : public OpaqueCallBufferization<LaunchKernelBufferization, LaunchKernelOp,
                                     /*writesOperands=*/true> {

  FailureOr<BufferLikeType>
  getBufferType(Operation *, Value value, const BufferizationOptions &,
                const BufferizationState &, SmallVector<Value> &) const {
    auto tensorType = cast<TensorType>(value.getType());
    return cast<BufferLikeType>(
        getMemRefTypeWithStaticIdentityLayout(tensorType));
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto launch = cast<LaunchKernelOp>(op);
    auto fit = [&](Value in, TensorType tensorType,
                   Value operand) -> FailureOr<Value> {
      // The callee was bufferized with identity layouts: copy to match.
      Type wanted = getMemRefTypeWithStaticIdentityLayout(tensorType);
      if (operand.getType() == wanted)
        return operand;
      FailureOr<Value> copy = allocateTensorForShapedValue(
          rewriter, launch.getLoc(), in, options, state, /*copy=*/true);
      if (failed(copy))
        return failure();
      FailureOr<Value> copyBuffer = getBuffer(rewriter, *copy, options, state);
      if (failed(copyBuffer))
        return failure();
      if (copyBuffer->getType() != wanted)
        return launch.emitOpError("cannot pass a buffer of type ")
               << copyBuffer->getType() << " where the kernel expects "
               << wanted;
      return *copyBuffer;
    };
    FailureOr<SmallVector<Value>> operands = bufferizeInputs<TensorType>(
        launch.getInputs(), rewriter, options, state, fit);
    if (failed(operands))
      return failure();
    SmallVector<Type> resultTypes;
    for (Type type : launch.getResultTypes()) {
      if (auto tensorType = dyn_cast<TensorType>(type))
        resultTypes.push_back(getMemRefTypeWithStaticIdentityLayout(tensorType));
      else
        resultTypes.push_back(type);
    }
    auto newLaunch = LaunchKernelOp::create(
        rewriter, launch.getLoc(), resultTypes, launch.getCallee(), *operands);
    newLaunch->setDiscardableAttrs(launch->getDiscardableAttrDictionary());
    replaceOpWithBufferizedValues(rewriter, op, newLaunch.getResults());
    return success();
  }
};

/// Tensor operands are inputs only; outputs are new buffers.
struct CustomCallBufferization
    : public OpaqueCallBufferization<CustomCallBufferization, CustomCallOp,
                                     /*writesOperands=*/false> {

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto call = cast<CustomCallOp>(op);
    if (call.getNumberOriginalArg())
      return call.emitOpError(
          "has tensor operands or results and number_original_arg; only the "
          "tensor form without number_original_arg can be bufferized");
    Location loc = call.getLoc();
    auto fit = [&](Value, RankedTensorType tensorType,
                   Value operand) -> FailureOr<Value> {
      // The callee reads contiguous data: copy a strided view.
      if (cast<MemRefType>(operand.getType()).getLayout().isIdentity())
        return operand;
      if (!tensorType.hasStaticShape())
        return call.emitOpError("operand of type ")
               << tensorType
               << " is a strided view of dynamic shape; the callee needs a "
                  "contiguous buffer";
      auto contiguous = MemRefType::get(tensorType.getShape(),
                                        tensorType.getElementType());
      FailureOr<Value> copy = options.createAlloc(rewriter, loc, contiguous, {});
      if (failed(copy) ||
          failed(options.createMemCpy(rewriter, loc, operand, *copy)))
        return failure();
      return *copy;
    };
    FailureOr<SmallVector<Value>> inputs = bufferizeInputs<RankedTensorType>(
        call.getInputs(), rewriter, options, state, fit);
    if (failed(inputs))
      return failure();
    SmallVector<Value> operands = std::move(*inputs);
    int32_t numInputs = static_cast<int32_t>(operands.size());
    SmallVector<Value> replacements;
    for (Value result : call.getResults()) {
      auto tensorType = dyn_cast<RankedTensorType>(result.getType());
      if (!tensorType || !tensorType.hasStaticShape())
        return call.emitOpError("result of type ")
               << result.getType()
               << " cannot be bufferized: the callee fills an output buffer, "
                  "which needs a statically shaped ranked tensor type";
      auto memrefType = MemRefType::get(tensorType.getShape(),
                                        tensorType.getElementType());
      FailureOr<Value> alloc = options.createAlloc(rewriter, loc, memrefType, {});
      if (failed(alloc))
        return failure();
      operands.push_back(*alloc);
      replacements.push_back(*alloc);
    }
    auto newCall = CustomCallOp::create(
        rewriter, loc, TypeRange{}, operands, call.getCallTargetNameAttr(),
        rewriter.getI32IntegerAttr(numInputs), call.getBackendConfigAttr());
    newCall->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    replaceOpWithBufferizedValues(rewriter, op, replacements);
    return success();
  }
};
} // namespace

void catalyst::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, CatalystDialect *) {
    LaunchKernelOp::attachInterface<LaunchKernelBufferization>(*ctx);
    CustomCallOp::attachInterface<CustomCallBufferization>(*ctx);
    ctx->loadDialect<memref::MemRefDialect>();
  });
}
