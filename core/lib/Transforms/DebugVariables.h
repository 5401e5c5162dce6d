//===- DebugVariables.h - debug variables for kernel arguments --*- C++ -*-===//
//
// With debug info, a kernel's arguments become DWARF formal parameters, so
// a debugger stopped in the kernel can `info args` and `print x`: a memref
// argument is a struct of its descriptor's pieces (allocated, aligned,
// offset, sizes, strides; the pointers to its element type), a scalar its
// base type. The names are the .mlir source's block argument names when
// the parser kept them (a NameLoc on the argument, as `executor-compile -g`
// does), else `arg0`, `arg1`, ...
//
//===----------------------------------------------------------------------===//
#ifndef TRANSFORMS_DEBUGVARIABLES_H
#define TRANSFORMS_DEBUGVARIABLES_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace catalyst {
/// A function argument before lowering.
struct ArgumentInfo {
  std::string name;
  mlir::Type type;
  mlir::Location loc;
};
using FunctionArguments =
    llvm::StringMap<llvm::SmallVector<ArgumentInfo>>;

/// The arguments of each `func.func` with a body in `module`.
FunctionArguments collectFunctionArguments(mlir::ModuleOp module);

/// Adds a DILocalVariable and `llvm.intr.dbg.value`s for the arguments of
/// each `llvm.func` of `module` (in the LLVM dialect, with debug scopes)
/// that `arguments` names, when its arguments are the expansion of those
/// (a memref: its descriptor's 3 + 2 * rank pieces; a scalar: itself).
/// Functions whose arguments do not match are left as they are. With
/// `inMemory` (for -O0) each argument is copied into the function's frame
/// and described there (`llvm.intr.dbg.declare`), as clang does at -O0:
/// LLVM's fast instruction selection keeps no location for the values.
void addArgumentVariables(mlir::ModuleOp module,
                          const FunctionArguments &arguments, bool inMemory);

/// The name `arg`'s location gives it (a NameLoc, as the parser keeps
/// them), or "" when it has none.
std::string writtenArgumentName(mlir::Location loc);
} // namespace catalyst

#endif // TRANSFORMS_DEBUGVARIABLES_H
