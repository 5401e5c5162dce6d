//===- LineDiff.h - a line diff between two snapshots -----------*- C++ -*-===//
//
// Patience anchors (lines unique on both sides) split the texts, Myers'
// O(ND) algorithm finishes the gaps; 100,000-line snapshots diff in tens of
// milliseconds. The result is a list of blocks, shown side by side or
// unified.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_LINEDIFF_H
#define STUDIOMODEL_LINEDIFF_H

#include "StudioModel/IrText.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace executor_studio::gui {

/// A run of lines: equal on both sides, or replaced (either count may be 0).
struct DiffBlock {
  uint32_t leftStart = 0, leftCount = 0;
  uint32_t rightStart = 0, rightCount = 0;
  bool same = false;
};

struct LineDiff {
  std::vector<DiffBlock> blocks;
  /// Lines only on the left, lines only on the right.
  size_t removed = 0, added = 0;
  bool identical() const { return removed == 0 && added == 0; }
};

/// Diffs two prepared texts line by line.
LineDiff diffLines(const TextLines &left, const TextLines &right);

enum class RowKind : uint8_t {
  Same,    ///< equal lines
  Changed, ///< a removed line beside an added line
  Removed, ///< left only
  Added,   ///< right only
  Hunk     ///< a unified hunk header (`@@ -l,n +r,m @@`)
};

/// One row of a view: indices into the left and right lines (-1: none).
/// Hunk rows carry the hunk's starts and counts instead.
struct DiffRow {
  int32_t left = -1;
  int32_t right = -1;
  RowKind kind = RowKind::Same;
  uint32_t leftCount = 0, rightCount = 0; // Hunk rows only
};

/// Rows of the side-by-side view: replaced lines pair up as Changed, the
/// rest of a replacement is Removed or Added.
std::vector<DiffRow> sideBySideRows(const LineDiff &diff);

constexpr size_t kWholeFile = std::numeric_limits<size_t>::max();
/// Rows of the unified view: each replacement's removed lines, then its
/// added lines; only `context` equal lines around each change (kWholeFile:
/// every line, no hunk headers).
std::vector<DiffRow> unifiedRows(const LineDiff &diff, size_t context = 3);

/// The unified diff as text (`--- left`, `+++ right`, `@@ ... @@` hunks).
std::string formatUnified(const TextLines &left, const TextLines &right,
                          const LineDiff &diff, std::string_view leftName,
                          std::string_view rightName, size_t context = 3);

/// The text of a hunk header row.
std::string hunkHeader(const DiffRow &row);

} // namespace executor_studio::gui

#endif // STUDIOMODEL_LINEDIFF_H
