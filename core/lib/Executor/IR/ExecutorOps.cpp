//===- ExecutorOps.cpp - executor dialect operations ------------*- C++ -*-===//
#include "Executor/IR/ExecutorOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace catalyst::executor;

std::string catalyst::executor::validateAddress(llvm::StringRef address) {
  if (address.empty())
    return "is empty; write it as host:port, e.g. \"127.0.0.1:4711\"";
  if (llvm::any_of(address, [](char c) { return llvm::isSpace(c); }))
    return "contains white space; write it as host:port";
  llvm::StringRef host, port;
  if (address.starts_with("[")) {
    size_t close = address.find(']');
    if (close == llvm::StringRef::npos)
      return "opens an IPv6 host with '[' but has no ']'; write it as "
             "[::1]:port";
    host = address.slice(1, close);
    llvm::StringRef rest = address.drop_front(close + 1);
    if (!rest.consume_front(":"))
      return "has no ':port' after the bracketed IPv6 host";
    port = rest;
  } else {
    size_t colon = address.rfind(':');
    if (colon == llvm::StringRef::npos)
      return "has no port; write it as host:port";
    host = address.take_front(colon);
    port = address.drop_front(colon + 1);
    if (host.contains(':'))
      return "has an IPv6 host without brackets; write it as [host]:port";
  }
  if (host.empty())
    return "has an empty host; write it as host:port";
  if (port.empty())
    return "has an empty port; write it as host:port";
  if (llvm::all_of(port, llvm::isDigit)) {
    unsigned value = 0;
    if (port.getAsInteger(10, value) || value > 65535)
      return "has port " + port.str() + " outside [0, 65535]";
    return "";
  }
  // A symbolic placeholder (`ADDR:PORT`) that EXECUTOR_ADDRESS_MAP resolves.
  bool symbolic = (llvm::isAlpha(port.front()) || port.front() == '_') &&
                  llvm::all_of(port, [](char c) {
                    return llvm::isAlnum(c) || c == '_';
                  });
  if (!symbolic)
    return "has port '" + port.str() +
           "', which is neither a number nor a placeholder name";
  return "";
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
#include "Executor/IR/ExecutorOps.cpp.inc"
