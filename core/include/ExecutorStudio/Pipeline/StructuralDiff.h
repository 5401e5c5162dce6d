//===- StructuralDiff.h - the same names for the same values ----*- C++ -*-===//
//
// A line diff of two printed snapshots shows a whole loop as removed and
// re-added when one inserted op renumbered `%5` to `%6`. The structural diff
// parses both snapshots, matches their operations as llvm-diff matches
// instructions (by location when both have one, then by structure and
// operands, then by kind), and renames the right side's values and blocks to
// the names of what they match on the left. A line diff of the results then
// shows only the lines a pass inserted, rewrote or removed. The texts stay
// valid MLIR with the names the printer or the user gave: only names change,
// each unique where the parser would see it (sibling regions may reuse a
// name, as the printer does), and a function a pass moved in its module is
// put back in the left's place. Plain data here: no MLIR types but the
// context.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_PIPELINE_STRUCTURALDIFF_H
#define EXECUTORSTUDIO_PIPELINE_STRUCTURALDIFF_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm
namespace mlir {
class AsmParserState;
class Block;
class MLIRContext;
} // namespace mlir

namespace executor_studio {

/// Two snapshots whose values and blocks are named alike where they match.
struct AlignedSnapshots {
  /// The left text as given.
  std::string left;
  /// The right text, its matched values and blocks carrying their left
  /// counterparts' names, the others their own (or a fresh one where that
  /// is taken).
  std::string right;
  /// Operations on each side, and how many of them matched.
  size_t leftOps = 0, rightOps = 0, matchedOps = 0;
  /// Value and block names the right text changed.
  size_t renamed = 0;
  /// Blocks of symbols (a module's functions) whose right text was put in
  /// the left's order: a function a pass moved is not shown as removed and
  /// added again.
  size_t moved = 0;
  /// When `moved`: for each line of `right`, the 1-based line of the right
  /// text as given that it shows (a viewer numbers lines by it, so that the
  /// lines of the printed snapshot are found); empty otherwise.
  std::vector<uint32_t> rightLineOrigins;
};

/// Parses `left` and `right` (MLIR as the recorder prints it, or as a user
/// edited it) into `context` and aligns their names. Fails with the side,
/// line and message when a text does not parse.
llvm::Expected<AlignedSnapshots> alignSnapshots(mlir::MLIRContext &context,
                                                llvm::StringRef left,
                                                llvm::StringRef right);

/// Parses a step's `text` (named `bufferName` in its locations; it must
/// outlive `sourceMgr`) into `top` in `context`, unverified, keeping each
/// op's places in `state`, as the structural diff and the graph of the IR
/// read a step. Fails with the first error, "line N: MESSAGE".
llvm::Error parseStepText(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
                          llvm::StringRef text, llvm::StringRef bufferName,
                          mlir::Block &top, mlir::AsmParserState &state);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_PIPELINE_STRUCTURALDIFF_H
