//===- FuzzLaunchReply.cpp - the client's launch reply decoder ------------===//
//
// A launch reply as ExecutorClient reads it from an executor
// (readLaunchReply, Wire.h), for the results the request asked for, inline
// or in the executor's shared arena. The caller then reads each result by
// the shape in its descriptor: the harness reads every byte each shape
// promises.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Wire.h"

using namespace executor_studio::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Byte 0 sizes the executor's arena, byte 1 says how many results were
  // asked for, and one byte each their rank and element size.
  if (size < 2)
    return 0;
  size_t arenaSize = static_cast<size_t>(data[0]) * 64;
  size_t count = data[1] % 8;
  if (size < 2 + 2 * count)
    return 0;
  std::vector<int64_t> ranks, eltSizes;
  for (size_t i = 0; i < count; ++i) {
    ranks.push_back(data[2 + 2 * i] % 5);
    eltSizes.push_back(data[3 + 2 * i] % 17);
  }
  size_t skip = 2 + 2 * count;
  std::unique_ptr<char[]> arena(new char[arenaSize + 1]);
  std::memset(arena.get(), 'a', arenaSize);
  std::unique_ptr<char[]> reply(new char[size - skip]);
  std::memcpy(reply.get(), data + skip, size - skip);
  llvm::SmallVector<ReplyMemRef, 4> results;
  if (!readLaunchReply(reply.get(), size - skip,
                       arenaSize ? arena.get() : nullptr, arenaSize, ranks,
                       eltSizes, results)
           .empty())
    return 0;
  // What the client does with them: dense descriptors of the caller's rank
  // over copies of the data.
  unsigned sum = 0;
  for (size_t i = 0; i < count; ++i) {
    std::vector<int64_t> words(3 + 2 * ranks[i]);
    DescriptorView out{words.data(), ranks[i]};
    std::vector<char> copy(results[i].data, results[i].data + results[i].bytes);
    out.setDense(copy.data(), results[i].sizes.data());
    const volatile char *first = out.aligned();
    uint64_t bytes = uint64_t(out.numElements()) * eltSizes[i];
    for (uint64_t b = 0; b < bytes; ++b)
      sum += first[b];
  }
  return sum == 0xdeadbeef ? 1 : 0;
}
