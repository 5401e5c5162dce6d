//===- OpDocumentation.h - ODS docs of the registered ops -------*- C++ -*-===//
//
// The summaries and descriptions that ODS holds for every op of the dialects
// executor-opt registers, and what each executor op lowers to. They are
// generated at build time (mlir-tblgen -gen-op-doc / -gen-pass-doc) and
// parsed on first use.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_OPDOCUMENTATION_H
#define EXECUTORLSP_OPDOCUMENTATION_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace executor_studio {
namespace lsp {

struct OpDocumentation {
  /// `executor.open`.
  std::string name;
  /// The one-line summary.
  std::string summary;
  /// The assembly format as ODS documents it; empty for generic-only ops.
  std::string syntax;
  /// The description (markdown), without the trait and operand tables.
  std::string description;
};

/// The documentation of `opName`, or null when ODS has none for it.
const OpDocumentation *lookupOpDocumentation(llvm::StringRef opName);

/// For an `executor.*` op: the runtime call convert-executor-to-llvm replaces
/// it with (markdown, from the pass's description), or null.
const std::string *lookupRuntimeLowering(llvm::StringRef opName);

/// The pass that turns `executor.*` ops into runtime calls.
inline constexpr llvm::StringLiteral kRuntimeLoweringPass =
    "convert-executor-to-llvm";

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_OPDOCUMENTATION_H
