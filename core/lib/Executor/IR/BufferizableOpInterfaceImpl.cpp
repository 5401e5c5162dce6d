//===- BufferizableOpInterfaceImpl.cpp - bufferize executor.call -*- C++ -*-===//
//
// One-shot bufferize turns the tensor form of executor.call
//   %r = executor.call %s("f")(%a) : !executor.session, (tensor<1xf64>) -> tensor<4xf64>
// into its destination-passing form
//   %buf = memref.alloc() : memref<4xf64>
//   executor.call %s("f")(%a_buf, %buf) {num_input_args = 1 : i32}
//       : !executor.session, (memref<1xf64>, memref<4xf64>) -> ()
// A tensor already in an output position (after num_input_args) is a
// destination, as in linalg: it becomes its own buffer, which its result
// aliases.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace catalyst::executor;

namespace {
/// The index of the tensor output `operand` among the tensor outputs of
/// `call` (so also the index of its result), if it is one.
std::optional<unsigned> tensorOutputIndex(CallOp call, OpOperand &operand) {
  unsigned first = call.getInputs().getBeginOperandIndex() + call.getNumInputs();
  if (operand.getOperandNumber() < first ||
      !isa<TensorType>(operand.get().getType()))
    return std::nullopt;
  unsigned index = 0;
  for (OpOperand &out : call->getOpOperands().drop_front(first)) {
    if (&out == &operand)
      return index;
    if (isa<TensorType>(out.get().getType()))
      ++index;
  }
  return std::nullopt;
}

struct CallOpBufferization
    : public BufferizableOpInterface::ExternalModel<CallOpBufferization,
                                                    CallOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &) const {
    // Only outputs (after num_input_args) are written.
    auto call = cast<CallOp>(op);
    return operand.getOperandNumber() >=
           call.getInputs().getBeginOperandIndex() + call.getNumInputs();
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    auto call = cast<CallOp>(op);
    if (std::optional<unsigned> index = tensorOutputIndex(call, operand))
      return {{call->getResult(*index), BufferRelation::Equivalent}};
    return {};
  }
  bool bufferizesToAllocation(Operation *op, Value value) const {
    // Results past the tensor outputs are new buffers.
    auto result = dyn_cast<OpResult>(value);
    return result &&
           result.getResultNumber() >= cast<CallOp>(op).getNumTensorOutputs();
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto call = cast<CallOp>(op);
    auto toBuffer = [&](Value value) -> FailureOr<Value> {
      if (!isa<TensorType>(value.getType()))
        return value;
      return getBuffer(rewriter, value, options, state);
    };
    SmallVector<Value> inputs, outputs, replacements;
    for (Value in : call.getInputOperands()) {
      FailureOr<Value> buffer = toBuffer(in);
      if (failed(buffer))
        return failure();
      inputs.push_back(*buffer);
    }
    for (Value out : call.getOutputOperands()) {
      FailureOr<Value> buffer = toBuffer(out);
      if (failed(buffer))
        return failure();
      outputs.push_back(*buffer);
      if (isa<TensorType>(out.getType()))
        replacements.push_back(*buffer);
    }
    for (Value result :
         call.getResults().drop_front(call.getNumTensorOutputs())) {
      auto tensorType = cast<RankedTensorType>(result.getType());
      if (!tensorType.hasStaticShape())
        return call.emitOpError("result of type ")
               << tensorType
               << " has a dynamic shape; executor.call needs static result "
                  "shapes to allocate its output buffers (or pass the "
                  "output as a tensor operand after num_input_args)";
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
