//===- SequenceMatch.cpp - the common subsequence of two sequences --------===//
#include "ExecutorStudio/Pipeline/SequenceMatch.h"

#include <algorithm>
#include <cstddef>

namespace executor_studio {

namespace {

/// Finds matching item pairs (in increasing order on both sides).
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
  /// Ranges up to this many items go straight to Myers.
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
      // No item is unique on both sides: bounded Myers, else a replacement.
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

  /// Items unique in both ranges, longest increasing subsequence on the
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

} // namespace

std::vector<std::pair<uint32_t, uint32_t>>
matchSequences(std::vector<uint32_t> a, std::vector<uint32_t> b, uint32_t numIds) {
  return Matcher(std::move(a), std::move(b), numIds).run();
}

} // namespace executor_studio
