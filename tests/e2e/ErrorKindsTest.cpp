//===- ErrorKindsTest.cpp - a session's errors have kinds (Errors.h) ------===//
//
// Against a real executor-server: a crashing kernel is KernelCrashed with
// the kernel's name and its signal, a call past the launch time limit is
// LaunchTimedOut, an executor that is killed is SessionLost (and so is
// every call after it), an executor that says no is Refused with its
// reason; every one is an ExecutorError that names the address. Callers
// (the studio, the C ABI) ask for the kind, never match the text.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Errors.h"
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"

#include <csignal>
#include <gtest/gtest.h>
#include <thread>

using namespace executor_studio::runtime;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;

class ErrorKindsTest : public ::testing::Test {
protected:
  void SetUp() override {
    log = ::testing::TempDir() + "/error-kinds-" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name() +
          ".log";
    llvm::Error err = server.start(kServer, {}, log);
    ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  }
  void TearDown() override { server.stop(); }
  std::unique_ptr<ExecutorClient> connect(ClientOptions options = {}) {
    auto client = ExecutorClient::open(server.address(), options);
    EXPECT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    if (!client)
      return nullptr;
    EXPECT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    return std::move(*client);
  }
  LocalExecutor server;
  std::string log;
};
} // namespace

TEST_F(ErrorKindsTest, ACrashIsKernelCrashedWithItsSignal) {
  auto client = connect();
  ASSERT_TRUE(client);
  llvm::Error err = client->launch("crash", kObjectA, {}, {}).takeError();
  ASSERT_TRUE(err.isA<KernelCrashed>()) << llvm::toString(std::move(err));
  EXPECT_TRUE(endsSession(err));
  llvm::handleAllErrors(std::move(err), [&](const KernelCrashed &crash) {
    EXPECT_EQ(crash.kernel, "crash");
    EXPECT_EQ(crash.signal, SIGSEGV);
    EXPECT_EQ(crash.address, server.address());
  });
}

TEST_F(ErrorKindsTest, ACallPastTheTimeLimitIsLaunchTimedOut) {
  ClientOptions options;
  options.launchTimeout = std::chrono::milliseconds(300);
  auto client = connect(options);
  ASSERT_TRUE(client);
  llvm::Error err = client->launch("spin", kObjectA, {}, {}).takeError();
  ASSERT_TRUE(err.isA<LaunchTimedOut>()) << llvm::toString(std::move(err));
  EXPECT_TRUE(endsSession(err));
  llvm::handleAllErrors(std::move(err), [&](const LaunchTimedOut &late) {
    EXPECT_EQ(late.limit, std::chrono::milliseconds(300));
  });
  // The session was closed: what follows says so, by kind.
  std::vector<HostMemRef> in = {HostMemRef::of<double>({1}, {1})};
  llvm::Error after = client->launch("k", kObjectA, in, {{1, 8}}).takeError();
  EXPECT_TRUE(endsSession(after)) << llvm::toString(std::move(after));
  llvm::consumeError(std::move(after));
}

TEST_F(ErrorKindsTest, AnExecutorThatGoesIsSessionLost) {
  auto client = connect();
  ASSERT_TRUE(client);
  auto token = client->launchAsync("nap", kObjectA);
  ASSERT_TRUE(static_cast<bool>(token)) << llvm::toString(token.takeError());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  server.kill();
  llvm::Error err = client->await(*token);
  ASSERT_TRUE(err.isA<SessionLost>()) << llvm::toString(std::move(err));
  EXPECT_FALSE(err.isA<KernelCrashed>());
  EXPECT_TRUE(endsSession(err));
  llvm::consumeError(std::move(err));
}

TEST_F(ErrorKindsTest, AnExecutorThatSaysNoIsRefusedWithItsReason) {
  auto client = connect();
  ASSERT_TRUE(client);
  llvm::Error err = client->await(424242);
  ASSERT_TRUE(err.isA<Refused>()) << llvm::toString(std::move(err));
  EXPECT_FALSE(endsSession(err));
  llvm::handleAllErrors(std::move(err), [&](const Refused &no) {
    EXPECT_EQ(no.reason, "await of unknown ticket 424242");
  });
  // The session goes on.
  std::vector<HostMemRef> in = {HostMemRef::of<double>({1}, {1})};
  auto out = client->launch("k", kObjectA, in, {{1, 8}});
  EXPECT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
}

TEST(ErrorKinds, CrashReportsAreParsedFromExecutorServersWords) {
  std::string kernel;
  int signal = 0;
  EXPECT_TRUE(parseCrashReport(
      "kernel crash crashed with signal 11 (Segmentation fault)", kernel,
      signal));
  EXPECT_EQ(kernel, "crash");
  EXPECT_EQ(signal, 11);
  EXPECT_TRUE(parseCrashReport("the session crashed outside a kernel with "
                               "signal 6 (Aborted)",
                               kernel, signal));
  EXPECT_EQ(kernel, "");
  EXPECT_EQ(signal, 6);
  EXPECT_FALSE(parseCrashReport("something else", kernel, signal));
}
