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

using namespace executor_studio::runtime;

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
  llvm::SmallVector<ReplyMemRef, 4> results;
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
  EXPECT_EQ(std::vector<uint32_t>(r.outRank.begin(), r.outRank.end()),
            std::vector<uint32_t>{1});
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
  llvm::SmallVector<ReplyMemRef, 4> results;
  ASSERT_EQ(readLaunchReply(b.data.data(), b.data.size(), nullptr, 0, {1}, {8},
                            results),
            "");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(std::vector<int64_t>(results[0].sizes.begin(),
                                 results[0].sizes.end()),
            std::vector<int64_t>{4});
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
  EXPECT_NE(read(trailing).find("8 bytes follow the last result"),
            std::string::npos);
  Bytes error;
  error.put<uint64_t>(kReplyError);
  EXPECT_NE(read(error), "");
}

namespace {
/// checkResultView on a rank-1 descriptor the executor wrote.
std::string view1(uint64_t aligned, int64_t offset, int64_t size,
                  int64_t stride, uint64_t elt, ResultReach &reach) {
  int64_t words[5] = {int64_t(aligned), int64_t(aligned), offset, size, stride};
  return checkResultView(DescriptorView{words, 1}, elt, reach);
}
} // namespace

TEST(Wire, AResultDescriptorIsMeasuredBeforeUse) {
  ResultReach reach;
  ASSERT_EQ(view1(0x1000, 2, 4, 1, 8, reach), "");
  EXPECT_EQ(reach.start, 0x1010u);
  EXPECT_EQ(reach.readBytes, 32u);
  EXPECT_EQ(reach.denseBytes, 32u);
  // Strided: reads what it reaches, keeps its elements.
  ASSERT_EQ(view1(0x1000, 0, 4, 2, 4, reach), "");
  EXPECT_EQ(reach.readBytes, 28u);
  EXPECT_EQ(reach.denseBytes, 16u);
}

// Issue 22: a descriptor of 2^61+2 elements of 8 bytes with stride 0 made
// the client allocate (2^61+2)*8 mod 2^64 = 16 bytes and write 2^61+2
// elements into them.
TEST(Wire, AResultDescriptorThatLiesIsRefused) {
  ResultReach reach;
  EXPECT_NE(view1(0x1000, 0, (int64_t(1) << 61) + 2, 0, 8, reach)
                .find("overflow"),
            std::string::npos);
  EXPECT_NE(view1(0x1000, 0, 1000, 0, 8, reach).find("overlap"),
            std::string::npos);
  EXPECT_NE(view1(0x1000, 0, -1, 1, 8, reach).find("size -1"),
            std::string::npos);
  EXPECT_NE(view1(0x1000, 0, 4, -1, 8, reach).find("stride -1"),
            std::string::npos);
  EXPECT_NE(view1(0x1000, -3, 4, 1, 8, reach).find("offset is -3"),
            std::string::npos);
  EXPECT_NE(view1(~0ull - 8, 0, 4, 1, 8, reach).find("address space"),
            std::string::npos);
  EXPECT_NE(view1(0x1000, int64_t(1) << 62, 1, 1, 8, reach), "");
  EXPECT_EQ(view1(0x1000, 0, 0, 0, 8, reach), "");
  EXPECT_EQ(reach.denseBytes, 0u);
}
