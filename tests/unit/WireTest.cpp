//===- WireTest.cpp - the launch request and reply decoders ---------------===//
//
// What the executor takes from a launch request and what the client takes
// from a launch reply (runtime/include/ExecutorRuntime/Wire.h): both come
// from a peer, so each memref's data must be exactly what its shape says,
// and a reply must hold the results that were asked for.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Wire.h"

#include <gtest/gtest.h>

#include <vector>

using namespace executor_runtime;

namespace {
/// A message built field by field, with the data alignment the wire uses.
struct Bytes {
  std::vector<char> data;
  template <typename T> Bytes &put(T value) {
    const char *p = reinterpret_cast<const char *>(&value);
    data.insert(data.end(), p, p + sizeof(T));
    return *this;
  }
  Bytes &align() {
    while (data.size() % kDataAlignment)
      data.push_back(0);
    return *this;
  }
  Bytes &payload(size_t n) {
    put<uint64_t>(n).align();
    data.insert(data.end(), n, 'x');
    return *this;
  }
};

/// A request for one input of `sizes` (8-byte elements) with `bytes` of
/// data, and one rank-1 result.
Bytes request(std::vector<int64_t> sizes, size_t bytes) {
  Bytes b;
  b.put<uint64_t>(kLaunchMagic).put<uint64_t>(0x1000).put<uint32_t>(1)
      .put<uint32_t>(1).put<uint32_t>(1);
  b.data.push_back('k');
  b.put<uint32_t>(sizes.size()).put<uint32_t>(8);
  for (int64_t s : sizes)
    b.put<int64_t>(s);
  b.payload(bytes);
  b.put<uint32_t>(1).put<uint32_t>(8);
  return b;
}

/// A reply with one result of `rank` and `sizes` (`elt`-byte elements)
/// and `bytes` of data.
Bytes reply(uint32_t rank, uint32_t elt, std::vector<int64_t> sizes,
            size_t bytes) {
  Bytes b;
  b.put<uint64_t>(kReplyOk).put<uint32_t>(rank).put<uint32_t>(elt);
  for (int64_t s : sizes)
    b.put<int64_t>(s);
  b.payload(bytes);
  return b;
}

std::string parse(const Bytes &b) {
  LaunchRequest request;
  return parseLaunchRequest(b.data.data(), b.data.size(), nullptr, 0, request);
}

std::string read(const Bytes &b) {
  std::vector<ReplyMemRef> results;
  return readLaunchReply(b.data.data(), b.data.size(), nullptr, 0, {1}, {8},
                         results);
}
} // namespace

TEST(Wire, ARequestWhoseDataFitsItsShapeIsRead) {
  Bytes b = request({2, 3}, 48);
  LaunchRequest r;
  ASSERT_EQ(parseLaunchRequest(b.data.data(), b.data.size(), nullptr, 0, r), "");
  ASSERT_EQ(r.args.size(), 1u);
  DescriptorView view{r.args[0], 2};
  EXPECT_EQ(view.size(0), 2);
  EXPECT_EQ(view.size(1), 3);
  EXPECT_EQ(r.outRank, std::vector<uint32_t>{1});
}

// The kernel reads an input by its shape: data shorter than the shape (the
// kernel would read past the request), longer, or a shape whose size
// overflows is refused before any kernel runs.
TEST(Wire, ARequestWhoseDataDoesNotFitItsShapeIsRefused) {
  EXPECT_NE(parse(request({1000}, 8)).find("not what its shape needs"),
            std::string::npos);
  EXPECT_NE(parse(request({1}, 16)), "");
  EXPECT_NE(parse(request({-1}, 0)), "");
  EXPECT_NE(parse(request({int64_t(1) << 62, 4}, 0)), "");
  // Empty, but its strides overflow (found by fuzz-direct-call: the
  // executor's descriptor computed them with a signed overflow).
  EXPECT_NE(parse(request({0, int64_t(1) << 40, int64_t(1) << 40}, 0)), "");
  EXPECT_EQ(parse(request({0, 3}, 0)), "");
}

// A result count the request does not hold (found by fuzz-launch-request:
// the executor sized its result lists by it first, 4 billion results took
// 32 GiB) is refused before anything is allocated for it.
TEST(Wire, ARequestForMoreResultsThanItDescribesIsRefused) {
  Bytes b;
  b.put<uint64_t>(kLaunchMagic).put<uint64_t>(0x1000).put<uint32_t>(0)
      .put<uint32_t>(0xffffffffu).put<uint32_t>(0);
  b.put<uint32_t>(1).put<uint32_t>(8);
  EXPECT_NE(parse(b).find("4294967295 results in 8 bytes"), std::string::npos)
      << parse(b);
}

TEST(Wire, AReplyOfTheResultsAskedForIsRead) {
  Bytes b = reply(1, 8, {4}, 32);
  std::vector<ReplyMemRef> results;
  ASSERT_EQ(readLaunchReply(b.data.data(), b.data.size(), nullptr, 0, {1}, {8},
                            results),
            "");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].sizes, std::vector<int64_t>{4});
  EXPECT_EQ(results[0].bytes, 32u);
}

// The caller's descriptors have the ranks it asked for, and it reads each
// result by its shape: a reply of another rank (whose sizes the client
// copied into the caller's descriptor past their end), data shorter than
// the shape, or bytes after the last result are refused.
TEST(Wire, AReplyThatIsNotWhatWasAskedForIsRefused) {
  EXPECT_NE(read(reply(0, 8, {}, 8)).find("rank 0"), std::string::npos);
  EXPECT_NE(read(reply(1, 4, {4}, 16)), "");
  EXPECT_NE(read(reply(1, 8, {4}, 8)).find("not what its shape needs"),
            std::string::npos);
  EXPECT_NE(read(reply(1, 8, {-4}, 0)), "");
  Bytes trailing = reply(1, 8, {1}, 8);
  trailing.put<uint64_t>(0);
  EXPECT_NE(read(trailing).find("after the last result"), std::string::npos);
  Bytes error;
  error.put<uint64_t>(kReplyError);
  EXPECT_NE(read(error), "");
}
