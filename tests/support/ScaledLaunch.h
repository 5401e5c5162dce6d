//===- ScaledLaunch.h - the C ABI's descriptor launch with scalars -*- C++ -*-===//
//
// The test kernels' `_catalyst_pyface_scaled(a, x, n) -> (y, total, count)`
// (y = x * a + n, total = sum(y), count = size(x)) launched as the C ABI
// launches it: scalar inputs as rank-0 views of their values, scalar
// results stored at their views' bases. The executor tests launch it on
// every kind of executor.
//
//===----------------------------------------------------------------------===//
#ifndef TESTS_SUPPORT_SCALEDLAUNCH_H
#define TESTS_SUPPORT_SCALEDLAUNCH_H

#include "ExecutorRuntime/ExecutorClient.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <numeric>
#include <vector>

namespace executor_test {

/// Launches `scaled` at `entry` `times` times on `data`, checking each
/// result; then checks that a scalar of no C scalar's size is refused
/// before anything is sent.
inline void expectScaledDescriptorLaunches(
    executor_studio::runtime::ExecutorClient &client,
    uint64_t entry, double a, int32_t n,
    std::vector<double> data, int times) {
  using executor_studio::runtime::DescriptorView;
  const int64_t size = static_cast<int64_t>(data.size());
  void *aWords[3] = {&a, &a, nullptr}, *nWords[3] = {&n, &n, nullptr};
  int64_t x[5] = {0, 0, 0, size, 1};
  reinterpret_cast<double **>(x)[0] = data.data();
  reinterpret_cast<double **>(x)[1] = data.data();
  std::vector<double> expected;
  for (double v : data)
    expected.push_back(v * a + n);
  auto launch = [&](int64_t *y, double &total, int32_t &count,
                    uint32_t totalSize) {
    return client.launchDescriptorsAt(
        entry, "_catalyst_pyface_scaled",
        {DescriptorView{aWords, 0}, DescriptorView{x, 1},
         DescriptorView{nWords, 0}},
        {8, 8, 4},
        {DescriptorView{y, 1}, DescriptorView{&total, 0},
         DescriptorView{&count, 0}},
        {8, totalSize, 4}, {true, false, true}, {false, true, true});
  };
  for (int i = 0; i < times; ++i) {
    int64_t y[5] = {};
    double total = 0;
    int32_t count = 0;
    llvm::Error err = launch(y, total, count, 8);
    ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
    DescriptorView result{y, 1};
    ASSERT_EQ(result.size(0), size);
    const double *values = reinterpret_cast<const double *>(result.aligned());
    EXPECT_EQ(std::vector<double>(values, values + size), expected);
    EXPECT_EQ(total, std::accumulate(expected.begin(), expected.end(), 0.0));
    EXPECT_EQ(count, size);
    std::free(result.allocated());
  }
  // A scalar must have a C scalar's size; nothing is sent otherwise.
  int64_t y[5] = {};
  double total = 0;
  int32_t count = 0;
  llvm::Error odd = launch(y, total, count, 3);
  ASSERT_TRUE(static_cast<bool>(odd));
  EXPECT_NE(llvm::toString(std::move(odd)).find("of 3 bytes (1, 2, 4 or 8)"),
            std::string::npos);
}

} // namespace executor_test

#endif // TESTS_SUPPORT_SCALEDLAUNCH_H
