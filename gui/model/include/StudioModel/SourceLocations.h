//===- SourceLocations.h - where a line of IR came from ---------*- C++ -*-===//
//
// The source files and lines that a line of printed IR names in its
// `loc(...)`: Catalyst's IR carries the Python line of every op, so the IR
// view can go from an op back to the program. File-line-column locations
// count, also inside fused, named and call-site ones, and `#locN` aliases
// are looked up in the alias lines of the same text. The parser is core's
// (Pipeline/OpHistory.h, as the op history uses it); text only: no MLIR
// here.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_SOURCELOCATIONS_H
#define STUDIOMODEL_SOURCELOCATIONS_H

#include "ExecutorStudio/Pipeline/OpHistory.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace executor_studio::gui {
class TextLines;

/// A place in a source file; `line` and `column` are 1-based.
using SourceLocation = executor_studio::SourcePlace;

/// Each `"file":line:column` that `line` names in its `loc(...)`, in order,
/// each once; a `#locN` alias is resolved from the `#locN = loc(...)` line
/// of `text` (when given). File names are as written.
std::vector<SourceLocation> findSourceLocations(std::string_view line,
                                                const TextLines *text);

/// The first of them whose file is on disk, with that file's path: a
/// relative name is resolved against `baseDirectory` (the directory of the
/// document). None when no file named is on disk.
std::optional<SourceLocation>
findSourceOnDisk(std::string_view line, const TextLines *text,
                 const std::string &baseDirectory);

/// The ops at line `line` (1-based) of the file `fileName` whose text is
/// `fileText`, as the places the input's printed IR `inputIR` (recorded
/// with its locations) names for them: the line a user types or clicks is a
/// line of the file, not of the printed input (comments, blank lines,
/// aliases and the generic form make them differ). With `column` (1-based;
/// 0: any), the op that starts last at or before it on that line. Empty,
/// with `why`, when the line is past the end, holds no op, or the input
/// names no places.
std::vector<SourceLocation> findOpsAtFileLine(llvm::StringRef inputIR, llvm::StringRef fileName,
                                              llvm::StringRef fileText, unsigned line,
                                              unsigned column, std::string &why);

/// The lines of the file at `path`; none when it cannot be read.
std::optional<std::vector<std::string>> readSourceLines(const std::string &path);

} // namespace executor_studio::gui

#endif // STUDIOMODEL_SOURCELOCATIONS_H
