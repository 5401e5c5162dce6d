//===- HostProgramTest.cpp - the runtime leaves its host program alone ----===//
//
// A program of its own (this test is one: nothing else runs in it) links
// the runtime library and launches kernels over TCP, a Unix socket and TLS;
// afterwards its signal dispositions and malloc's settings are what they
// were before. The runtime once ignored SIGPIPE and set M_MMAP_THRESHOLD,
// M_TRIM_THRESHOLD and M_ARENA_MAX in every program that linked it.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "RunTool.h"

#include "llvm/Support/FileSystem.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace executor_studio::runtime;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;

/// Every signal's handler and flags (without SA_RESTORER, which glibc adds
/// when a disposition is set again, as std::system would for SIGINT).
std::vector<std::pair<uintptr_t, int>> dispositions() {
  std::vector<std::pair<uintptr_t, int>> all;
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction action{};
    if (sigaction(sig, nullptr, &action) != 0)
      continue;
    all.push_back({reinterpret_cast<uintptr_t>(action.sa_handler),
                   action.sa_flags & ~0x04000000 /* SA_RESTORER */});
  }
  return all;
}

/// Under ASan or TSan malloc is the sanitizer's, which neither reads
/// glibc's settings nor reports in mallinfo2: only the signals are checked.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kGlibcMalloc = false;
#else
constexpr bool kGlibcMalloc = true;
#endif

/// Whether malloc still maps a block of 64 MiB on its own (glibc's default
/// threshold grows at most to 32 MiB; a program tuned with M_MMAP_THRESHOLD
/// takes it from the heap instead).
bool largeBlocksAreMapped() {
  size_t before = mallinfo2().hblks;
  // volatile: the compiler may not drop the unused block.
  void *volatile block = std::malloc(64 << 20);
  size_t during = mallinfo2().hblks;
  std::free(block);
  return during == before + 1;
}

void launchOnce(ExecutorClient &client) {
  ASSERT_FALSE(static_cast<bool>(client.sendBinary(kObjectA)));
  std::vector<HostMemRef> in = {HostMemRef::of<double>({4}, {1, 2, 3, 4})};
  auto out = client.launch("k", kObjectA, in, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>()[3], 8);
}
} // namespace

TEST(HostProgram, LaunchesLeaveSignalsAndMallocAsTheyWere) {
  auto signalsBefore = dispositions();
  if (kGlibcMalloc)
    ASSERT_TRUE(largeBlocksAreMapped());
  std::string dir = ::testing::TempDir() + "/host-program-" +
                    std::to_string(getpid());
  ASSERT_TRUE(executor_test::makeExecutorCerts(dir, {"127.0.0.1"}));
  std::ofstream(dir + "/token") << "host-program-test-token-0123456\n";
  chmod((dir + "/token").c_str(), 0600);

  LocalExecutor tcp, unixSocket, tls;
  unixSocket.useUnixSocket(true);
  ASSERT_FALSE(static_cast<bool>(tcp.start(kServer, {}, dir + "/tcp.log")));
  ASSERT_FALSE(
      static_cast<bool>(unixSocket.start(kServer, {}, dir + "/unix.log")));
  ASSERT_FALSE(static_cast<bool>(tls.start(
      kServer,
      {"--token-file", dir + "/token", "--tls-cert", dir + "/server.pem",
       "--tls-key", dir + "/server.key"},
      dir + "/tls.log")));
  ClientOptions tlsOptions;
  tlsOptions.token = "host-program-test-token-0123456";
  tlsOptions.tlsCA = dir + "/ca.pem";
  for (auto [executor, options] :
       {std::pair<LocalExecutor *, ClientOptions>{&tcp, {}},
        {&unixSocket, {}},
        {&tls, tlsOptions}}) {
    auto client = ExecutorClient::open(executor->address(), options);
    ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    launchOnce(**client);
    // The executor goes while the client still writes: an error, and the
    // program lives on (no SIGPIPE).
    executor->stop();
    std::vector<HostMemRef> in = {
        HostMemRef::of<double>({1 << 20}, std::vector<double>(1 << 20, 1.0))};
    for (int i = 0; i < 3; ++i)
      EXPECT_FALSE(static_cast<bool>(
          (*client)->launch("k", kObjectA, in, {{1, 8}})));
  }
  llvm::sys::fs::remove_directories(dir);

  EXPECT_EQ(dispositions(), signalsBefore);
  if (kGlibcMalloc)
    EXPECT_TRUE(largeBlocksAreMapped());
}
