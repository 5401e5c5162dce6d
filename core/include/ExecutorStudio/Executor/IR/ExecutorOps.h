//===- ExecutorOps.h - executor dialect operations --------------*- C++ -*-===//
#ifndef EXECUTORSTUDIO_EXECUTOR_IR_EXECUTOROPS_H
#define EXECUTORSTUDIO_EXECUTOR_IR_EXECUTOROPS_H

#include "ExecutorStudio/Executor/IR/ExecutorDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "ExecutorStudio/Executor/IR/ExecutorOps.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace catalyst::executor {
/// Checks that `address` is an executor address: `host:port` (IPv6 hosts in
/// brackets; the port is a decimal number in [0, 65535] or a symbolic
/// placeholder such as `PORT`) or `unix:PATH`, in the runtime's grammar
/// (ExecutorStudio/Support/Address.h). Returns an empty string when it is,
/// otherwise what is wrong with it (the runtime's words).
std::string validateAddress(llvm::StringRef address);

/// Whether executor.launch carries `type` as a scalar (by pointer to its
/// value): i1, i8, i16, i32, i64, index, f16, bf16, f32, f64.
bool isLaunchScalar(mlir::Type type);

/// Registers the external models (BufferizableOpInterface for executor.call).
void registerBufferizableOpInterfaceExternalModels(mlir::DialectRegistry &registry);
} // namespace catalyst::executor

#endif // EXECUTORSTUDIO_EXECUTOR_IR_EXECUTOROPS_H
