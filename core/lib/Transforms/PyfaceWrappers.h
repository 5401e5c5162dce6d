//===- PyfaceWrappers.h - _catalyst_pyface_<entry> generation ---*- C++ -*-===//
#ifndef TRANSFORMS_PYFACEWRAPPERS_H
#define TRANSFORMS_PYFACEWRAPPERS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace catalyst {
/// An entry point of a target, with its signature before lowering.
struct EntryPoint {
  std::string name;
  mlir::FunctionType type;
};

/// Adds `_catalyst_pyface_<entry>` to `module` (in the LLVM dialect) for
/// each entry: `void(ptr results, ptr args)`, where `args` points to an
/// array of pointers, one per argument (to the memref descriptor, or to the
/// scalar), and `results` to the packed struct of the results. It calls
/// `_mlir_ciface_<entry>`, which llvm.emit_c_interface produced.
mlir::LogicalResult addPyfaceWrappers(mlir::ModuleOp module,
                                      llvm::ArrayRef<EntryPoint> entries);
} // namespace catalyst

#endif // TRANSFORMS_PYFACEWRAPPERS_H
