//===- LineDiff.cpp - a line diff between two snapshots -------------------===//
#include "StudioModel/LineDiff.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace executor_studio::gui {

namespace {

/// Finds matching line pairs (in increasing order on both sides).
class Matcher {
public:
  Matcher(std::vector<uint32_t> a, std::vector<uint32_t> b, uint32_t numIds)
      : a(std::move(a)), b(std::move(b)), countA(numIds, 0), countB(numIds, 0),
        posB(numIds, 0) {}

  std::vector<std::pair<uint32_t, uint32_t>> run() {
    match(0, a.size(), 0, b.size());
    return std::move(matches);
  }

private:
  /// Ranges up to this many lines go straight to Myers.
  static constexpr size_t kSmallRange = 2000;

  void match(size_t aLo, size_t aHi, size_t bLo, size_t bHi) {
    while (aLo < aHi && bLo < bHi && a[aLo] == b[bLo])
      matches.emplace_back(aLo++, bLo++);
    size_t suffix = 0;
    while (aLo < aHi - suffix && bLo < bHi - suffix &&
           a[aHi - 1 - suffix] == b[bHi - 1 - suffix])
      ++suffix;
    size_t aEnd = aHi - suffix, bEnd = bHi - suffix;
    if (aLo < aEnd && bLo < bEnd)
      matchMiddle(aLo, aEnd, bLo, bEnd);
    for (size_t i = 0; i < suffix; ++i)
      matches.emplace_back(aEnd + i, bEnd + i);
  }

  void matchMiddle(size_t aLo, size_t aHi, size_t bLo, size_t bHi) {
    size_t total = (aHi - aLo) + (bHi - bLo);
    if (total <= kSmallRange) {
      myers(aLo, aHi, bLo, bHi, total);
      return;
    }
    std::vector<std::pair<uint32_t, uint32_t>> anchors =
        uniqueAnchors(aLo, aHi, bLo, bHi);
    if (anchors.empty()) {
      // No line is unique on both sides: bounded Myers, else a replacement.
      size_t budget = std::clamp<size_t>(20'000'000 / total, 64, 1024);
      myers(aLo, aHi, bLo, bHi, budget);
      return;
    }
    size_t ai = aLo, bi = bLo;
    for (auto [x, y] : anchors) {
      match(ai, x, bi, y);
      matches.emplace_back(x, y);
      ai = x + 1;
      bi = y + 1;
    }
    match(ai, aHi, bi, bHi);
  }

  /// Lines unique in both ranges, longest increasing subsequence on the
  /// right's positions (patience sorting).
  std::vector<std::pair<uint32_t, uint32_t>>
  uniqueAnchors(size_t aLo, size_t aHi, size_t bLo, size_t bHi) {
    for (size_t i = aLo; i < aHi; ++i)
      ++countA[a[i]];
    for (size_t j = bLo; j < bHi; ++j) {
      ++countB[b[j]];
      posB[b[j]] = static_cast<uint32_t>(j);
    }
    std::vector<std::pair<uint32_t, uint32_t>> candidates;
    for (size_t i = aLo; i < aHi; ++i)
      if (countA[a[i]] == 1 && countB[a[i]] == 1)
        candidates.emplace_back(static_cast<uint32_t>(i), posB[a[i]]);
    for (size_t i = aLo; i < aHi; ++i)
      countA[a[i]] = 0;
    for (size_t j = bLo; j < bHi; ++j)
      countB[b[j]] = 0;
    if (candidates.empty())
      return {};
    // piles[k]: index in candidates of the smallest tail of an increasing
    // run of length k + 1.
    std::vector<size_t> piles, previous(candidates.size(), SIZE_MAX);
    for (size_t c = 0; c < candidates.size(); ++c) {
      uint32_t y = candidates[c].second;
      auto it = std::lower_bound(piles.begin(), piles.end(), y,
                                 [&](size_t pile, uint32_t value) {
                                   return candidates[pile].second < value;
                                 });
      if (it != piles.begin())
        previous[c] = *(it - 1);
      if (it == piles.end())
        piles.push_back(c);
      else
        *it = c;
    }
    std::vector<std::pair<uint32_t, uint32_t>> anchors;
    for (size_t c = piles.back(); c != SIZE_MAX; c = previous[c])
      anchors.push_back(candidates[c]);
    std::reverse(anchors.begin(), anchors.end());
    return anchors;
  }

  /// Myers' greedy algorithm with at most `maxD` edits; matches nothing when
  /// the ranges need more.
  void myers(size_t aLo, size_t aHi, size_t bLo, size_t bHi, size_t maxD) {
    const long n = static_cast<long>(aHi - aLo), m = static_cast<long>(bHi - bLo);
    maxD = std::min<size_t>(maxD, n + m);
    const long offset = static_cast<long>(maxD) + 1;
    std::vector<long> v(2 * maxD + 3, 0);
    // trace[d] holds v[-d..d] as it was before step d.
    std::vector<std::vector<long>> trace;
    long endD = -1;
    for (long d = 0; d <= static_cast<long>(maxD); ++d) {
      trace.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
      bool done = false;
      for (long k = -d; k <= d; k += 2) {
        long x;
        if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
          x = v[offset + k + 1];
        else
          x = v[offset + k - 1] + 1;
        long y = x - k;
        while (x < n && y < m && a[aLo + x] == b[bLo + y]) {
          ++x;
          ++y;
        }
        v[offset + k] = x;
        if (x >= n && y >= m) {
          done = true;
          break;
        }
      }
      if (done) {
        endD = d;
        break;
      }
    }
    if (endD < 0)
      return; // too different: one replacement
    std::vector<std::pair<uint32_t, uint32_t>> found;
    long x = n, y = m;
    for (long d = endD; d > 0; --d) {
      const std::vector<long> &before = trace[d];
      auto at = [&](long k) { return before[k + d]; }; // k in [-d, d]
      long k = x - y;
      long prevK;
      if (k == -d || (k != d && at(k - 1) < at(k + 1)))
        prevK = k + 1;
      else
        prevK = k - 1;
      long prevX = at(prevK);
      long prevY = prevX - prevK;
      while (x > prevX && y > prevY) {
        --x;
        --y;
        found.emplace_back(aLo + x, bLo + y);
      }
      x = prevX;
      y = prevY;
    }
    while (x > 0 && y > 0) {
      --x;
      --y;
      found.emplace_back(aLo + x, bLo + y);
    }
    matches.insert(matches.end(), found.rbegin(), found.rend());
  }

  std::vector<uint32_t> a, b;
  std::vector<uint32_t> countA, countB, posB;
  std::vector<std::pair<uint32_t, uint32_t>> matches;
};

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
  Matcher matcher(std::move(a), std::move(b), static_cast<uint32_t>(ids.size()));
  std::vector<std::pair<uint32_t, uint32_t>> matches = matcher.run();

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
