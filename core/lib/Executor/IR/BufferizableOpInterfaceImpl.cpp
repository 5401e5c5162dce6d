//===- BufferizableOpInterfaceImpl.cpp - bufferize executor.call -*- C++ -*-===//
//
// One-shot bufferize turns the tensor form of executor.call
//   %r = executor.call %s("f")(%a) : !executor.session, (tensor<1xf64>) -> tensor<4xf64>
// into its destination-passing form
//   %buf = memref.alloc() : memref<4xf64>
//   executor.call %s("f")(%a_buf, %buf) {num_input_args = 1 : i32}
//       : !executor.session, (memref<1xf64>, memref<4xf64>) -> ()
//
//===----------------------------------------------------------------------===//
#include "Executor/IR/ExecutorOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace catalyst::executor;

namespace {
struct CallOpBufferization
    : public BufferizableOpInterface::ExternalModel<CallOpBufferization,
                                                    CallOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &) const {
    // Only output buffers (after num_input_args) are written, and those are
    // memrefs already; tensor operands are read only.
    return operand.getOperandNumber() >
           cast<CallOp>(op).getNumInputs(); // session is operand 0
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto call = cast<CallOp>(op);
    SmallVector<Value> inputs;
    for (Value in : call.getInputOperands()) {
      if (!isa<TensorType>(in.getType())) {
        inputs.push_back(in);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, in, options, state);
      if (failed(buffer))
        return failure();
      inputs.push_back(*buffer);
    }
    SmallVector<Value> outputs(call.getOutputOperands());
    SmallVector<Value> replacements;
    for (Value result : call.getResults()) {
      auto tensorType = cast<RankedTensorType>(result.getType());
      if (!tensorType.hasStaticShape())
        return call.emitOpError("result of type ")
               << tensorType
               << " has a dynamic shape; executor.call needs static result "
                  "shapes to allocate its output buffers";
      auto memrefType = MemRefType::get(tensorType.getShape(),
                                        tensorType.getElementType());
      FailureOr<Value> alloc =
          options.createAlloc(rewriter, call.getLoc(), memrefType, {});
      if (failed(alloc))
        return failure();
      outputs.push_back(*alloc);
      replacements.push_back(*alloc);
    }
    SmallVector<Value> operands(inputs);
    llvm::append_range(operands, outputs);
    auto newCall = CallOp::create(
        rewriter, call.getLoc(), TypeRange{}, call.getSession(),
        call.getSymbolAttr(), operands,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(inputs.size())));
    newCall->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    replaceOpWithBufferizedValues(rewriter, op, replacements);
    return success();
  }
};
} // namespace

void catalyst::executor::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, ExecutorDialect *) {
    CallOp::attachInterface<CallOpBufferization>(*ctx);
    ctx->loadDialect<memref::MemRefDialect>();
  });
}
