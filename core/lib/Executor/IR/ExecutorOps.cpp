//===- ExecutorOps.cpp - executor dialect operations ------------*- C++ -*-===//
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"
#include "ExecutorStudio/Support/Address.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace catalyst::executor;

std::string catalyst::executor::validateAddress(llvm::StringRef address) {
  return executor_studio::parseAddress(
      std::string_view(address.data(), address.size()));
}

bool catalyst::executor::isLaunchScalar(Type type) {
  if (type.isIndex() || type.isF16() || type.isBF16() || type.isF32() ||
      type.isF64())
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer || !integer.isSignless())
    return false;
  unsigned width = integer.getWidth();
  return width == 1 || width == 8 || width == 16 || width == 32 || width == 64;
}

LogicalResult OpenOp::verify() {
  std::string problem = validateAddress(getAddress());
  if (!problem.empty())
    return emitOpError("address \"") << getAddress() << "\" " << problem;
  return success();
}

LogicalResult SendBinaryOp::verify() {
  if (getBinaryPath().empty())
    return emitOpError("binary_path is empty; give the path of the object "
                       "file to ship (cross-compile-targets records it as "
                       "catalyst.object_file)");
  if (getFormat() != 0)
    return emitOpError("format ")
           << getFormatAttr().getValue().getSExtValue()
           << " is reserved; only 0 (the raw object file) is supported";
  return success();
}

template <typename OpT>
static LogicalResult verifyCalleeAndObject(OpT op) {
  if (op.getKernelCallee().empty())
    return op.emitOpError("kernel_callee is empty; name the entry function "
                          "of the target module");
  if (op.getObject().empty())
    return op.emitOpError("object is empty; give the path of the object file "
                          "shipped with executor.send_binary");
  return success();
}

LogicalResult LaunchOp::verify() { return verifyCalleeAndObject(*this); }
LogicalResult LaunchAsyncOp::verify() { return verifyCalleeAndObject(*this); }

unsigned CallOp::getNumInputs() {
  if (std::optional<uint32_t> n = getNumInputArgs())
    return *n;
  return getInputs().size();
}

OperandRange CallOp::getInputOperands() {
  return getInputs().take_front(getNumInputs());
}

OperandRange CallOp::getOutputOperands() {
  return getInputs().drop_front(getNumInputs());
}

unsigned CallOp::getNumTensorOutputs() {
  return llvm::count_if(getOutputOperands().getTypes(),
                        llvm::IsaPred<TensorType>);
}

LogicalResult CallOp::verify() {
  if (getSymbol().empty())
    return emitOpError("symbol is empty; name the function to invoke on the "
                       "executor");
  if (std::optional<uint32_t> n = getNumInputArgs()) {
    // An I32Attr is signless: read it as signed to reject negatives.
    int64_t value = getNumInputArgsAttr().getValue().getSExtValue();
    if (value < 0 || value > static_cast<int64_t>(getInputs().size()))
      return emitOpError("num_input_args = ")
             << value << " must lie in [0, " << getInputs().size()
             << "] (the number of operands)";
  }
  // Tensor outputs are destination-passing style, as in linalg: the leading
  // results are their filled values, one each, of the same type.
  SmallVector<Type> tensorOutputs;
  for (Value out : getOutputOperands())
    if (isa<TensorType>(out.getType()))
      tensorOutputs.push_back(out.getType());
  if (getNumResults() < tensorOutputs.size())
    return emitOpError("has ")
           << tensorOutputs.size() << " tensor output operand(s) after "
           << "num_input_args but " << getNumResults()
           << " result(s); each tensor output needs a result of its type "
              "(the filled value, as in destination-passing style)";
  for (auto [index, type] : llvm::enumerate(tensorOutputs))
    if (getResult(index).getType() != type)
      return emitOpError("result #")
             << index << " of type " << getResult(index).getType()
             << " does not match its tensor output operand of type " << type
             << " (tensor outputs and their results pair up in order)";
  return success();
}

#define GET_OP_CLASSES
#include "ExecutorStudio/Executor/IR/ExecutorOps.cpp.inc"
