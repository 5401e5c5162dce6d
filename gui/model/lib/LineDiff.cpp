//===- LineDiff.cpp - a line diff between two snapshots -------------------===//
#include "StudioModel/LineDiff.h"

#include "ExecutorStudio/Pipeline/SequenceMatch.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace executor_studio::gui {

namespace {

void addBlock(LineDiff &diff, uint32_t l, uint32_t lc, uint32_t r, uint32_t rc,
              bool same) {
  if (lc == 0 && rc == 0)
    return;
  if (!diff.blocks.empty() && diff.blocks.back().same == same) {
    DiffBlock &last = diff.blocks.back();
    if (last.leftStart + last.leftCount == l &&
        last.rightStart + last.rightCount == r) {
      last.leftCount += lc;
      last.rightCount += rc;
      return;
    }
  }
  diff.blocks.push_back({l, lc, r, rc, same});
  if (!same) {
    diff.removed += lc;
    diff.added += rc;
  }
}

/// Moves each run of only removed (or only added) lines down while the line
/// after it equals its first line, as diff and git compact their hunks: a
/// removed module `  module @m {` ... `  }` then shows its own closing brace
/// as removed, not the one of the function before it.
void slideDown(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b,
               std::vector<std::pair<uint32_t, uint32_t>> &matches) {
  uint32_t ai = 0, bi = 0;
  for (size_t i = 0; i < matches.size(); ++i) {
    auto &[x, y] = matches[i];
    // Only where the line after the match is equal too (or the end), so
    // that a run slides past equal lines and never into a replacement.
    bool nextFollows = i + 1 < matches.size()
                           ? matches[i + 1].first == x + 1 && matches[i + 1].second == y + 1
                           : x + 1 == a.size() && y + 1 == b.size();
    if (nextFollows) {
      if (y == bi && x > ai && a[ai] == a[x])
        x = ai; // removed a[ai, x) becomes removed a(ai, x]
      else if (x == ai && y > bi && b[bi] == b[y])
        y = bi;
    }
    ai = x + 1;
    bi = y + 1;
  }
}

} // namespace

LineDiff diffLines(const TextLines &left, const TextLines &right) {
  std::unordered_map<std::string_view, uint32_t> ids;
  ids.reserve(left.size() + right.size());
  auto intern = [&](const TextLines &lines) {
    std::vector<uint32_t> out(lines.size());
    for (size_t i = 0; i < lines.size(); ++i)
      out[i] = ids.emplace(lines.line(i), static_cast<uint32_t>(ids.size()))
                   .first->second;
    return out;
  };
  std::vector<uint32_t> a = intern(left);
  std::vector<uint32_t> b = intern(right);
  std::vector<std::pair<uint32_t, uint32_t>> matches =
      matchSequences(a, b, static_cast<uint32_t>(ids.size()));
  slideDown(a, b, matches);

  LineDiff diff;
  uint32_t ai = 0, bi = 0;
  for (auto [x, y] : matches) {
    if (x > ai || y > bi) {
      // A replacement block: adjacent removed and added runs merge.
      addBlock(diff, ai, x - ai, bi, y - bi, false);
    }
    addBlock(diff, x, 1, y, 1, true);
    ai = x + 1;
    bi = y + 1;
  }
  uint32_t n = static_cast<uint32_t>(left.size()), m = static_cast<uint32_t>(right.size());
  if (ai < n || bi < m)
    addBlock(diff, ai, n - ai, bi, m - bi, false);
  return diff;
}

std::vector<DiffRow> sideBySideRows(const LineDiff &diff) {
  std::vector<DiffRow> rows;
  size_t total = 0;
  for (const DiffBlock &block : diff.blocks)
    total += std::max(block.leftCount, block.rightCount);
  rows.reserve(total);
  for (const DiffBlock &block : diff.blocks) {
    if (block.same) {
      for (uint32_t i = 0; i < block.leftCount; ++i)
        rows.push_back({int32_t(block.leftStart + i), int32_t(block.rightStart + i),
                        RowKind::Same});
      continue;
    }
    uint32_t paired = std::min(block.leftCount, block.rightCount);
    for (uint32_t i = 0; i < paired; ++i)
      rows.push_back({int32_t(block.leftStart + i), int32_t(block.rightStart + i),
                      RowKind::Changed});
    for (uint32_t i = paired; i < block.leftCount; ++i)
      rows.push_back({int32_t(block.leftStart + i), -1, RowKind::Removed});
    for (uint32_t i = paired; i < block.rightCount; ++i)
      rows.push_back({-1, int32_t(block.rightStart + i), RowKind::Added});
  }
  return rows;
}

std::vector<DiffRow> unifiedRows(const LineDiff &diff, size_t context) {
  // Every line in unified order, with the cursors on both sides.
  struct Full {
    DiffRow row;
    uint32_t leftPos, rightPos;
  };
  std::vector<Full> full;
  for (const DiffBlock &block : diff.blocks) {
    if (block.same) {
      for (uint32_t i = 0; i < block.leftCount; ++i)
        full.push_back({{int32_t(block.leftStart + i), int32_t(block.rightStart + i),
                         RowKind::Same},
                        block.leftStart + i, block.rightStart + i});
      continue;
    }
    for (uint32_t i = 0; i < block.leftCount; ++i)
      full.push_back({{int32_t(block.leftStart + i), -1, RowKind::Removed},
                      block.leftStart + i, block.rightStart});
    for (uint32_t i = 0; i < block.rightCount; ++i)
      full.push_back({{-1, int32_t(block.rightStart + i), RowKind::Added},
                      block.leftStart + block.leftCount, block.rightStart + i});
  }
  std::vector<DiffRow> rows;
  if (context == kWholeFile) {
    rows.reserve(full.size());
    for (const Full &f : full)
      rows.push_back(f.row);
    return rows;
  }
  // Keep the rows within `context` of a change.
  std::vector<char> keep(full.size(), 0);
  long lastChange = -1;
  for (size_t i = 0; i < full.size(); ++i) {
    if (full[i].row.kind == RowKind::Same)
      continue;
    long from = std::max<long>(static_cast<long>(i) - static_cast<long>(context),
                               lastChange + 1);
    size_t to = std::min(full.size(), i + context + 1);
    for (size_t k = static_cast<size_t>(std::max<long>(from, 0)); k < to; ++k)
      keep[k] = 1;
    lastChange = static_cast<long>(i);
  }
  for (size_t i = 0; i < full.size();) {
    if (!keep[i]) {
      ++i;
      continue;
    }
    size_t end = i;
    DiffRow header;
    header.kind = RowKind::Hunk;
    header.left = static_cast<int32_t>(full[i].leftPos);
    header.right = static_cast<int32_t>(full[i].rightPos);
    while (end < full.size() && keep[end]) {
      if (full[end].row.left >= 0)
        ++header.leftCount;
      if (full[end].row.right >= 0)
        ++header.rightCount;
      ++end;
    }
    rows.push_back(header);
    for (size_t k = i; k < end; ++k)
      rows.push_back(full[k].row);
    i = end;
  }
  return rows;
}

std::string hunkHeader(const DiffRow &row) {
  auto range = [](int32_t start, uint32_t count) {
    // Unified diffs count from 1; an empty range names the line before it.
    std::string s = std::to_string(count == 0 ? start : start + 1);
    if (count != 1)
      s += "," + std::to_string(count);
    return s;
  };
  return "@@ -" + range(row.left, row.leftCount) + " +" +
         range(row.right, row.rightCount) + " @@";
}

std::string formatUnified(const TextLines &left, const TextLines &right,
                          const LineDiff &diff, std::string_view leftName,
                          std::string_view rightName, size_t context) {
  std::string out;
  if (diff.identical())
    return out;
  out.append("--- ").append(leftName).append("\n");
  out.append("+++ ").append(rightName).append("\n");
  for (const DiffRow &row : unifiedRows(diff, context)) {
    switch (row.kind) {
    case RowKind::Hunk:
      out.append(hunkHeader(row)).append("\n");
      break;
    case RowKind::Same:
    case RowKind::Changed:
      out.append(" ").append(left.line(row.left)).append("\n");
      break;
    case RowKind::Removed:
      out.append("-").append(left.line(row.left)).append("\n");
      break;
    case RowKind::Added:
      out.append("+").append(right.line(row.right)).append("\n");
      break;
    }
  }
  return out;
}

} // namespace executor_studio::gui
