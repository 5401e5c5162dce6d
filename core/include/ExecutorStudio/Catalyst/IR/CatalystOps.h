//===- CatalystOps.h - catalyst subset operations ---------------*- C++ -*-===//
#ifndef EXECUTORSTUDIO_CATALYST_IR_CATALYSTOPS_H
#define EXECUTORSTUDIO_CATALYST_IR_CATALYSTOPS_H

#include "ExecutorStudio/Catalyst/IR/CatalystDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
class ModuleOp; // LaunchKernelOp::getCalleeModule (BuiltinOps.h)
} // namespace mlir

#define GET_OP_CLASSES
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h.inc"



namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace catalyst {
/// Whether a launch's `actual` operand or result type fits the kernel's
/// `declared` one: equal, or (since the host and a target module bufferize
/// separately) a tensor on one side and a memref of the same shape and
/// element type on the other.
bool kernelTypeMatches(mlir::Type declared, mlir::Type actual);
/// kernelTypeMatches for each pair of two lists of the same length.
bool kernelTypesMatch(llvm::ArrayRef<mlir::Type> declared,
                      llvm::ArrayRef<mlir::Type> actual);

/// When the callee of `launch` does not resolve: the kernels (functions of
/// the target or dispatched modules around it) a few edits from it, nearest
/// first, at most 3, in name order; else none. The verifier's "did you
/// mean" and the language server's quick fixes both take them from here.
llvm::SmallVector<mlir::SymbolRefAttr> suggestCallees(LaunchKernelOp launch);

/// Registers BufferizableOpInterface for catalyst.launch_kernel: tensor
/// operands become their buffers, tensor results become new buffers of the
/// identity-layout memref type (matching one-shot bufferize's
/// function-boundary-type-conversion=identity-layout-map for the callee).
void registerBufferizableOpInterfaceExternalModels(
    mlir::DialectRegistry &registry);
} // namespace catalyst
#endif // EXECUTORSTUDIO_CATALYST_IR_CATALYSTOPS_H
