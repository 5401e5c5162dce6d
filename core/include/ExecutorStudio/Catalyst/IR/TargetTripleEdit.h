//===- TargetTripleEdit.h - set catalyst.target.triple in the source -*- C++ -*-===//
//
// The studio (re-running a target for the connected executor's triple) and
// the language server (a code action) both change a target module's triple
// in the text the user wrote, keeping the rest of it as it is.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_CATALYST_IR_TARGETTRIPLEEDIT_H
#define EXECUTORSTUDIO_CATALYST_IR_TARGETTRIPLEEDIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace catalyst {

/// The triple a target module is compiled for: its catalyst.target.triple,
/// else this host's (the rule of cross-compile-targets).
std::string getEffectiveTargetTriple(mlir::ModuleOp target);

/// Whether code compiled for `compiled` cannot run on a machine of `runs`
/// (another architecture or object format).
bool isOtherArchitecture(llvm::StringRef compiled, llvm::StringRef runs);

/// Replace `length` bytes at `offset` of the source by `text`.
struct SourceEdit {
  size_t offset = 0;
  size_t length = 0;
  std::string text;
};

/// The edit of `source` that makes `catalyst.target` of `target` say
/// `triple = "<triple>"` (its other entries kept), where `moduleOffset` is
/// the offset in `source` of the target's `module` keyword. An error says
/// why when the header there is not `module [@name] attributes {...}` with
/// a `catalyst.target` entry.
llvm::Expected<SourceEdit> getSetTargetTripleEdit(llvm::StringRef source,
                                                  size_t moduleOffset,
                                                  mlir::ModuleOp target,
                                                  llvm::StringRef triple);

/// The same from the target's location (a FileLineColLoc into `source`).
llvm::Expected<SourceEdit> getSetTargetTripleEdit(llvm::StringRef source,
                                                  mlir::ModuleOp target,
                                                  llvm::StringRef triple);

} // namespace catalyst

#endif // EXECUTORSTUDIO_CATALYST_IR_TARGETTRIPLEEDIT_H
