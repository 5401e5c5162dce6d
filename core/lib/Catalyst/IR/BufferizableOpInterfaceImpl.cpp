//===- BufferizableOpInterfaceImpl.cpp - bufferize launch_kernel -*- C++ -*-===//
//
// catalyst.launch_kernel crosses into a separately compiled module, so its
// bufferization is conservative: every tensor operand is read and may be
// written by the kernel (one-shot bufferize copies it when it is used again),
// and every tensor result is a new buffer the kernel returns.
//
//===----------------------------------------------------------------------===//
#include "Catalyst/IR/CatalystOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace catalyst;

namespace {
struct LaunchKernelBufferization
    : public BufferizableOpInterface::ExternalModel<LaunchKernelBufferization,
                                                    LaunchKernelOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return true;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

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
    SmallVector<Value> operands;
    for (Value in : launch.getInputs()) {
      auto tensorType = dyn_cast<TensorType>(in.getType());
      if (!tensorType) {
        operands.push_back(in);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, in, options, state);
      if (failed(buffer))
        return failure();
      // The callee was bufferized with identity layouts: cast to match.
      Type wanted = getMemRefTypeWithStaticIdentityLayout(tensorType);
      Value operand = *buffer;
      if (operand.getType() != wanted) {
        FailureOr<Value> copy = allocateTensorForShapedValue(
            rewriter, launch.getLoc(), in, options, state, /*copy=*/true);
        if (failed(copy))
          return failure();
        FailureOr<Value> copyBuffer =
            getBuffer(rewriter, *copy, options, state);
        if (failed(copyBuffer))
          return failure();
        operand = *copyBuffer;
        if (operand.getType() != wanted)
          return launch.emitOpError("cannot pass a buffer of type ")
                 << operand.getType() << " where the kernel expects "
                 << wanted;
      }
      operands.push_back(operand);
    }
    SmallVector<Type> resultTypes;
    for (Type type : launch.getResultTypes()) {
      if (auto tensorType = dyn_cast<TensorType>(type))
        resultTypes.push_back(getMemRefTypeWithStaticIdentityLayout(tensorType));
      else
        resultTypes.push_back(type);
    }
    auto newLaunch = LaunchKernelOp::create(
        rewriter, launch.getLoc(), resultTypes, launch.getCallee(), operands);
    newLaunch->setDiscardableAttrs(launch->getDiscardableAttrDictionary());
    replaceOpWithBufferizedValues(rewriter, op, newLaunch.getResults());
    return success();
  }
};
} // namespace

void catalyst::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, CatalystDialect *) {
    LaunchKernelOp::attachInterface<LaunchKernelBufferization>(*ctx);
  });
}
