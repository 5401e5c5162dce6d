//===- FuzzResultView.cpp - a result descriptor the executor wrote --------===//
//
// The launch protocols that read results from the executor's memory
// (Catalyst's services, ORC's memory access) take the descriptor a kernel
// wrote as the executor's word: checkResultView (Wire.h) measures it before
// the client sizes anything by it, then the client reads the bytes it
// reaches and gathers them densely (gatherDense), as ExecutorClient does.
// The input is the descriptor: byte 0 its rank (0-4), byte 1 its element
// size, then its words (aligned pointer, offset, sizes, strides; zeros when
// the input ends). The harness does what the client does with what is
// accepted, into buffers of exactly the sizes checkResultView gave, and
// checks its promise: the dense result is never larger than what is read.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Wire.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

using namespace executor_studio::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  int64_t rank = data[0] % 5;
  int64_t eltSize = data[1] % 17;
  size_t wordCount = 3 + 2 * rank;
  std::vector<int64_t> words(wordCount, 0);
  // Word 0 (the allocated pointer) the client only frees; word 1 is the
  // aligned pointer, as an executor address.
  size_t available = size - 2;
  for (size_t w = 1; w < wordCount; ++w) {
    size_t at = (w - 1) * 8;
    if (at >= available)
      break;
    std::memcpy(&words[w], data + 2 + at, std::min<size_t>(8, available - at));
  }
  DescriptorView view{words.data(), rank};
  ResultReach reach;
  if (!checkResultView(view, eltSize, reach).empty())
    return 0;
  if (reach.denseBytes > reach.readBytes) {
    std::fprintf(stderr, "checkResultView accepted %llu dense bytes from "
                         "%llu read\n",
                 (unsigned long long)reach.denseBytes,
                 (unsigned long long)reach.readBytes);
    std::abort();
  }
  // What the client reads from the executor (readBytes from the first
  // element reached) and what it allocates (denseBytes): large ones are
  // measured above, not allocated here.
  if (reach.readBytes > (1u << 20) || !eltSize || !reach.readBytes)
    return 0;
  std::unique_ptr<char[]> read(new char[reach.readBytes]);
  std::memset(read.get(), 'r', reach.readBytes);
  std::unique_ptr<char[]> dense(new char[reach.denseBytes]);
  gatherDense(view, eltSize, read.get(), dense.get());
  unsigned sum = 0;
  for (uint64_t b = 0; b < reach.denseBytes; ++b)
    sum += static_cast<unsigned char>(dense[b]);
  return sum == 0xdeadbeef ? 1 : 0;
}
