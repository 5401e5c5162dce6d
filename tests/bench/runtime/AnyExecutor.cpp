//===- AnyExecutor.cpp - the bench against a running executor -------------===//
#include "AnyExecutor.h"

#include "ExecutorRuntime/ExecutorClient.h"

#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace executor_studio::runtime;
using Clock = std::chrono::steady_clock;

namespace {
double secondsSince(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

struct Spread {
  double median, low, high;
};
Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

bool isLocal(const std::string &address) {
  return address.rfind("unix:", 0) == 0 || address.rfind("127.", 0) == 0 ||
         address.rfind("[::1]", 0) == 0 || address.rfind("localhost:", 0) == 0;
}

int failed(const std::string &what, llvm::Error err) {
  std::fprintf(stderr, "executor-runtime-bench: %s: %s\n", what.c_str(),
               llvm::toString(std::move(err)).c_str());
  return 1;
}
} // namespace

int benchAnyExecutor(const std::string &address, int iterations, int rounds) {
  auto opening = Clock::now();
  auto opened = ExecutorClient::open(address);
  if (!opened)
    return failed("open", opened.takeError());
  ExecutorClient &client = **opened;
  double openMs = secondsSince(opening) * 1e3;
  llvm::Triple runs(client.executorTriple()),
      host(llvm::sys::getProcessTriple());

  // The same kernel (y = 2 * x on a memref<?xf64>) for either architecture.
  std::string object, entry;
  if (runs.getArch() == host.getArch()) {
    object = KERNELS_A_OBJECT;
    entry = "k";
  } else if (runs.getArch() == llvm::Triple::aarch64) {
    object = AARCH64_OBJECT;
    entry = "twice";
  } else {
    std::fprintf(stderr,
                 "executor-runtime-bench: executor %s runs %s: this build has "
                 "test kernels for %s and aarch64 only\n",
                 address.c_str(), runs.str().c_str(), host.str().c_str());
    return 1;
  }
  auto shipping = Clock::now();
  if (llvm::Error err = client.sendBinary(object))
    return failed("send_binary", std::move(err));
  double shipMs = secondsSince(shipping) * 1e3;

  bool emulated = runs.getArch() != host.getArch() &&
                  isLocal(client.connectedAddress());
  std::printf("executor %s: %s, %s\n", client.connectedAddress().c_str(),
              executorKindName(client.executorKind()), runs.str().c_str());
  if (emulated)
    std::printf("  EMULATED: an executor for %s on this %s machine runs under "
                "qemu-user; these figures are not comparable with a native "
                "executor's\n",
                runs.getArchName().str().c_str(),
                host.getArchName().str().c_str());
  std::printf("open %.1f ms, send_binary of %s %.1f ms\n", openMs,
              object.substr(object.rfind('/') + 1).c_str(), shipMs);

  // Latency: a launch of memref<4xf64> in and out, `iterations` a round.
  std::vector<HostMemRef> small = {HostMemRef::of<double>({4}, {1, 2, 3, 4})};
  std::vector<double> latency;
  for (int r = 0; r < rounds; ++r) {
    auto start = Clock::now();
    for (int i = 0; i < iterations; ++i) {
      auto out = client.launch(entry, object, small, {{1, 8}});
      if (!out)
        return failed("launch", out.takeError());
      if ((*out)[0].as<double>() != std::vector<double>{2, 4, 6, 8}) {
        std::fprintf(stderr, "executor-runtime-bench: wrong launch result\n");
        return 1;
      }
    }
    latency.push_back(secondsSince(start) * 1e6 / iterations);
  }
  Spread l = spread(latency);
  std::printf("launch latency, memref<4xf64> in and out: median %.1f us "
              "(rounds %.1f .. %.1f us; %d rounds of %d)%s\n",
              l.median, l.low, l.high, rounds, iterations,
              emulated ? " [emulated, not comparable]" : "");

  // Bandwidth: 16 MiB in and out in one launch.
  const int64_t count = (16 << 20) / 8;
  std::vector<double> values(count);
  for (int64_t i = 0; i < count; ++i)
    values[i] = static_cast<double>(i % 1000);
  std::vector<HostMemRef> big = {HostMemRef::of<double>({count}, values)};
  std::vector<double> bandwidth;
  for (int r = 0; r < std::max(1, std::min(rounds, 5)); ++r) {
    auto start = Clock::now();
    auto out = client.launch(entry, object, big, {{1, 8}});
    if (!out)
      return failed("launch of 16 MiB", out.takeError());
    double seconds = secondsSince(start);
    std::vector<double> result = (*out)[0].as<double>();
    if (static_cast<int64_t>(result.size()) != count || result[999] != 1998 ||
        result[count - 1] != 2 * values[count - 1]) {
      std::fprintf(stderr, "executor-runtime-bench: wrong 16 MiB result\n");
      return 1;
    }
    bandwidth.push_back(2.0 * count * 8 / seconds / 1e6);
  }
  Spread b = spread(bandwidth);
  std::printf("bandwidth, 16 MiB in and out in one launch: median %.0f MB/s "
              "(rounds %.0f .. %.0f MB/s; %zu rounds)%s\n",
              b.median, b.low, b.high, bandwidth.size(),
              emulated ? " [emulated, not comparable]" : "");
  if (llvm::Error err = client.close())
    return failed("close", std::move(err));
  return 0;
}
