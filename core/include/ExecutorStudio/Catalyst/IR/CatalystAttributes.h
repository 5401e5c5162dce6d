//===- CatalystAttributes.h - typed access to catalyst.* attrs --*- C++ -*-===//
//
// The passes read and write a handful of discardable attributes; these
// helpers give them one spelling and one parser each.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_CATALYST_IR_CATALYSTATTRIBUTES_H
#define EXECUTORSTUDIO_CATALYST_IR_CATALYSTATTRIBUTES_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
class ModuleOp;
class Operation;
} // namespace mlir

namespace catalyst {
namespace attrs {
inline constexpr llvm::StringLiteral kTarget = "catalyst.target";
inline constexpr llvm::StringLiteral kDispatch = "catalyst.dispatch";
inline constexpr llvm::StringLiteral kObjectFile = "catalyst.object_file";
inline constexpr llvm::StringLiteral kObjectFiles = "catalyst.object_files";
inline constexpr llvm::StringLiteral kNonblocking = "catalyst.nonblocking";
} // namespace attrs

/// The contents of `catalyst.target = {triple?, pipeline?, debug?}`.
struct TargetInfo {
  std::optional<std::string> triple;
  std::optional<std::string> pipeline;
  /// Whether the target is compiled with debug info.
  bool debug = false;
};

/// Whether `op` carries `catalyst.target`.
bool isTarget(mlir::Operation *op);
/// `catalyst.target` of `op`, if it has one.
std::optional<TargetInfo> getTarget(mlir::Operation *op);
/// The address of `catalyst.dispatch = {address = ...}`, if `op` has one.
std::optional<std::string> getDispatchAddress(mlir::Operation *op);
/// Whether `op` carries `catalyst.dispatch` at all (even a malformed one).
bool hasDispatch(mlir::Operation *op);
void setDispatchAddress(mlir::Operation *op, llvm::StringRef address);
/// `catalyst.object_file` of `op`, if it has one (possibly empty).
std::optional<std::string> getObjectFile(mlir::Operation *op);
void setObjectFile(mlir::Operation *op, llvm::StringRef path);
/// `catalyst.object_files` of the root module.
llvm::SmallVector<std::string> getObjectFiles(mlir::Operation *op);
/// Appends `path` to `catalyst.object_files` of `op` (once).
void appendObjectFile(mlir::Operation *op, llvm::StringRef path);
bool isNonblocking(mlir::Operation *op);

/// The name a target module is known by: its symbol name, else `unnamed`.
std::string getTargetName(mlir::ModuleOp module);
/// Where cross-compile-targets writes the object of the target `name`:
/// WORKSPACE/NAME/NAME.o.
std::string getTargetObjectPath(llvm::StringRef workspace, llvm::StringRef name);

/// The distinct `catalyst.dispatch` addresses of the modules nested in
/// `root`, in the order they first appear: the program's executors.
llvm::SmallVector<std::string> collectExecutorAddresses(mlir::Operation *root);

/// The executor a call with dispatch address `dispatch` runs on: `dispatch`
/// itself, or for an empty one the program's only executor among
/// `executors`. Emits an error at `op` (that names the executors when there
/// are several) and fails otherwise; `attrName` is how the op spells its
/// dispatch in the message.
mlir::FailureOr<std::string>
resolveDispatch(mlir::Operation *op, llvm::StringRef dispatch,
                llvm::ArrayRef<std::string> executors,
                llvm::StringRef attrName);

} // namespace catalyst

#endif // EXECUTORSTUDIO_CATALYST_IR_CATALYSTATTRIBUTES_H
