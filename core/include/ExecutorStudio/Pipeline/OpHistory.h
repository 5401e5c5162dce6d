//===- OpHistory.h - where an op went, pass by pass -------------*- C++ -*-===//
//
// An op is followed through a recording by the source places its location
// names: in MLIR the `loc(...)` of each line (file-line-column locations,
// also inside fused, named and call-site ones, `#locN` aliases resolved), in
// a target's LLVM IR the `!dbg` DILocation of each instruction (its line,
// column and its scope's file, and the places it was inlined at), in its
// assembly the `.loc` directive each instruction follows (`.file` names the
// file). The studio's op history, `executor-studio --history` and the
// language server's `executor/opHistory` all use this. Snapshots must be
// recorded with their locations (RecordOptions::printDebugInfo, which also
// gives a target's LLVM IR and assembly their line table). Text only: no
// MLIR types here.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_PIPELINE_OPHISTORY_H
#define EXECUTORSTUDIO_PIPELINE_OPHISTORY_H

#include "ExecutorStudio/Pipeline/PipelineRecorder.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace executor_studio {

/// A place in a source file; `line` and `column` are 1-based. Column 0 is
/// any column (a function's line in a line table has none).
struct SourcePlace {
  std::string file;
  unsigned line = 0, column = 0;

  friend bool operator==(const SourcePlace &a, const SourcePlace &b) {
    return a.file == b.file && a.line == b.line && a.column == b.column;
  }
};

/// Whether `a` and `b` name the same place: the same line and column (0
/// matches any), in the same file, or one file's path ends with the other's
/// (a line table holds absolute paths where the IR has the name it was
/// given).
bool samePlace(const SourcePlace &a, const SourcePlace &b);

/// The `loc(...)` a location alias (`#loc3`) stands for; none when the text
/// defines no such alias.
using LocationAliasLookup =
    llvm::function_ref<std::optional<llvm::StringRef>(llvm::StringRef alias)>;

/// The places a line of MLIR names in its `loc(...)`: file-line-column
/// locations, also inside fused, named and call-site ones, in order, each
/// once; a `#locN` alias is resolved through `lookupAlias` (each once, 16
/// deep at most). Text outside `loc(...)` is the op's and is not read.
std::vector<SourcePlace> findMlirPlaces(llvm::StringRef line,
                                        LocationAliasLookup lookupAlias);

/// The places each line of one snapshot's text names, indexed once.
/// `text` must outlive it.
class SnapshotPlaces {
public:
  SnapshotPlaces(llvm::StringRef text, SnapshotKind kind);
  ~SnapshotPlaces();
  SnapshotPlaces(SnapshotPlaces &&) noexcept;
  SnapshotPlaces &operator=(SnapshotPlaces &&) noexcept;

  /// Lines of the text.
  size_t size() const;
  /// Line `line` (0-based) as it is in the text.
  llvm::StringRef line(size_t line) const;
  /// The places line `line` (0-based) names, in order, each once; none past
  /// the end, for a location alias's own line, or for a line that holds no
  /// code (a label, a directive, metadata).
  std::vector<SourcePlace> placesOfLine(size_t line) const;
  /// The lines (0-based, in order) that name one of `places`.
  std::vector<unsigned> linesOf(llvm::ArrayRef<SourcePlace> places) const;

private:
  struct Index;
  std::unique_ptr<Index> index;
};

/// Which lines of a source file each line of a step's text came from, and
/// back: the link between a source `.mlir` and any step (its MLIR, a
/// kernel's LLVM IR or assembly), as Compiler Explorer colours a source
/// line and what it became. Read from the same places an op's history
/// follows (`loc`, `!dbg`, `.loc`); the studio's linked view and the
/// language server's `executor/sourceLines` both use it.
struct SourceLineMap {
  /// For each line of the step's text (0-based), the source lines
  /// (1-based, ascending, each once) it names in `file`: every place of an
  /// MLIR line's loc (a fused one names several), an LLVM IR or assembly
  /// line's own line (not the lines it was inlined at).
  std::vector<std::vector<unsigned>> sourceLinesOf;
  /// The source lines any step line names, ascending, and for each the
  /// step lines (0-based, ascending) that name it (parallel vectors).
  std::vector<unsigned> sourceLines;
  std::vector<std::vector<unsigned>> stepLinesOf;

  /// The step lines of source line `line` (1-based); none when it has none.
  llvm::ArrayRef<unsigned> stepLines(unsigned line) const;
  /// The index of source line `line` in `sourceLines` (its colour); -1 when
  /// no step line names it.
  int rank(unsigned line) const;
};

/// The map of `text` (a step's text of `kind`) to the lines of `file`
/// (places in other files, a line table's absolute path for the name given
/// to the parser included, as samePlace matches them).
SourceLineMap mapSourceLines(llvm::StringRef text, SnapshotKind kind, llvm::StringRef file);

/// One step of an op's history.
struct OpHistoryStep {
  /// The snapshot; null for the input.
  const Snapshot *snapshot = nullptr;
  /// For a target's own step (Snapshot::nested), the step it is recorded in.
  const Snapshot *parent = nullptr;
  /// The lines (0-based) of its text that name one of the places.
  std::vector<unsigned> lines;
};

/// Where the ops that name one of `places` are in each snapshot of
/// `recording`: the input, then every step, each followed by its nested
/// steps (those only where the op is: a kernel's op, not every op of the
/// host). A step where none is left is listed with no lines. Snapshots
/// without text are left out.
std::vector<OpHistoryStep> opHistory(const Recording &recording,
                                     llvm::ArrayRef<SourcePlace> places);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_PIPELINE_OPHISTORY_H
