//===- SequenceMatch.h - the common subsequence of two sequences -*- C++ -*-===//
//
// The matching under the studio's line diff and the structural diff: items
// unique on both sides anchor (patience), Myers' O(ND) algorithm finishes
// the gaps, and ranges too different for a bounded Myers stay unmatched.
// 100,000-item sequences match in tens of milliseconds.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_PIPELINE_SEQUENCEMATCH_H
#define EXECUTORSTUDIO_PIPELINE_SEQUENCEMATCH_H

#include <cstdint>
#include <utility>
#include <vector>

namespace executor_studio {

/// Pairs (i, j) with a[i] == b[j], increasing on both sides: a long common
/// subsequence of `a` and `b`. Items are ids below `numIds`.
std::vector<std::pair<uint32_t, uint32_t>>
matchSequences(std::vector<uint32_t> a, std::vector<uint32_t> b, uint32_t numIds);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_PIPELINE_SEQUENCEMATCH_H
