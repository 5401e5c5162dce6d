//===- ObjectArchitectureTest.cpp - objects checked against the executor --===//
//
// ExecutorClient refuses, before linking, an object compiled for another
// architecture than the executor's (ORC's setup message reports its triple),
// in both directions: an aarch64 object sent to this host's executor-server,
// and a host object sent to an aarch64 executor-server. The second runs when
// EXECUTOR_AARCH64_SERVER names a command that runs the aarch64 server (the
// e2e-aarch64 lit suite sets it to qemu-aarch64-static -L SYSROOT ...).
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"

#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <gtest/gtest.h>

using namespace executor_studio::runtime;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kHostObject = KERNELS_A_OBJECT;
const std::string kAarch64Object = AARCH64_OBJECT;

HostMemRef vec(std::vector<double> values) {
  return HostMemRef::of<double>({static_cast<int64_t>(values.size())}, values);
}

std::unique_ptr<ExecutorClient> open(const LocalExecutor &server) {
  auto client = ExecutorClient::open(server.address());
  EXPECT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  return client ? std::move(*client) : nullptr;
}
} // namespace

TEST(ObjectArchitectureTest, TheHostExecutorRefusesAnAarch64Object) {
  LocalExecutor server;
  llvm::Error started = server.start(kServer);
  ASSERT_FALSE(static_cast<bool>(started)) << llvm::toString(std::move(started));
  auto client = open(server);
  ASSERT_TRUE(client);
  std::string host = llvm::sys::getProcessTriple();
  EXPECT_EQ(client->executorTriple(), host);

  llvm::Error refused = client->sendBinary(kAarch64Object);
  ASSERT_TRUE(static_cast<bool>(refused));
  EXPECT_EQ(llvm::toString(std::move(refused)),
            "twice_aarch64.o is aarch64-unknown-" +
                llvm::Triple(host).getOSAndEnvironmentName().str() +
                " but executor " + server.address() + " runs " + host +
                ": set catalyst.target = {triple = \"" + host +
                "\"} on @twice_aarch64");
  EXPECT_FALSE(client->hasObject(kAarch64Object));

  // Nothing was linked: the session goes on.
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kHostObject)));
  auto out = client->launch("k", kHostObject, {vec({1, 2})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{2, 4}));
}

TEST(ObjectArchitectureTest, AnAarch64ExecutorRefusesAHostObject) {
  const char *command = std::getenv("EXECUTOR_AARCH64_SERVER_COMMAND");
  if (!command || !*command)
    GTEST_SKIP() << "EXECUTOR_AARCH64_SERVER_COMMAND is not set (the "
                    "e2e-aarch64 suite runs this test with the aarch64 "
                    "executor-server under qemu-aarch64-static)";
  LocalExecutor server;
  llvm::Error started = server.start(command, {}, "", std::chrono::seconds(60));
  ASSERT_FALSE(static_cast<bool>(started)) << llvm::toString(std::move(started));
  auto client = open(server);
  ASSERT_TRUE(client);
  EXPECT_EQ(client->executorTriple(), "aarch64-unknown-linux-gnu");

  llvm::Error refused = client->sendBinary(kHostObject);
  ASSERT_TRUE(static_cast<bool>(refused));
  EXPECT_EQ(llvm::toString(std::move(refused)),
            "kernels_a.o is x86_64-unknown-linux-gnu but executor " +
                server.address() +
                " runs aarch64-unknown-linux-gnu: set catalyst.target = "
                "{triple = \"aarch64-unknown-linux-gnu\"} on @kernels_a");

  // The aarch64 object is linked and runs there.
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kAarch64Object)));
  auto out = client->launch("twice", kAarch64Object, {vec({1.5, -2})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{3, -4}));
}
