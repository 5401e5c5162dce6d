//===- InteropTest.cpp - ExecutorClient on other executors ----------------===//
//
// ExecutorClient against LLVM's stock llvm-jitlink-executor (an ORC executor
// with no services of ours or Catalyst's) and against executor-server
// publishing only Catalyst's services (--services=catalyst, as
// catalyst-executor does): objects, launches (the HostMemRef and the
// descriptor paths, strided results), async launches, calls, assets, and a
// crash, with the numbers checked.
//
// With CATALYST_EXECUTOR=/path/to/catalyst-executor (built from a Catalyst
// checkout, see docs/executors.md, "Executors and clients") the same tests
// also run against Catalyst's own executor; without it they are skipped.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Errors.h"
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "ExecutorRuntime/Socket.h"
#include "ExternalExecutor.h"
#include "ScaledLaunch.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace executor_studio::runtime;
using executor_test::JitlinkExecutor;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;
const std::string kObjectB = KERNELS_B_OBJECT;
const std::string kAssets = ASSETS_OBJECT;

enum class Peer { LlvmJitlinkExecutor, CatalystServices, CatalystExecutor };

std::string peerName(const ::testing::TestParamInfo<Peer> &info) {
  switch (info.param) {
  case Peer::LlvmJitlinkExecutor:
    return "LlvmJitlinkExecutor";
  case Peer::CatalystServices:
    return "CatalystServices";
  case Peer::CatalystExecutor:
    return "CatalystExecutor";
  }
  return "?";
}

HostMemRef vec(std::vector<double> values) {
  return HostMemRef::of<double>({static_cast<int64_t>(values.size())}, values);
}

class InteropTest : public ::testing::TestWithParam<Peer> {
protected:
  void SetUp() override {
    std::string name =
        ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char &c : name)
      if (c == '/')
        c = '_';
    log = ::testing::TempDir() + "/interop-" + name + ".log";
    const char *catalyst = std::getenv("CATALYST_EXECUTOR");
    if (GetParam() == Peer::CatalystExecutor && (!catalyst || !*catalyst))
      GTEST_SKIP() << "set CATALYST_EXECUTOR to a catalyst-executor binary";
  }
  void TearDown() override {
    client.reset();
    jitlink.stop();
    server.stop();
  }
  /// Starts the peer and opens a session with it.
  void connect() {
    std::string address;
    if (GetParam() == Peer::CatalystExecutor) {
      const char *path = std::getenv("CATALYST_EXECUTOR");
      ASSERT_TRUE(jitlink.start(path)) << "catalyst-executor did not listen";
      address = jitlink.address;
    } else if (GetParam() == Peer::LlvmJitlinkExecutor) {
      ASSERT_TRUE(jitlink.start()) << "llvm-jitlink-executor did not listen";
      address = jitlink.address;
    } else {
      llvm::Error err =
          server.start(kServer, {"--services=catalyst"}, log);
      ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
      address = server.address();
    }
    auto opened = ExecutorClient::open(address);
    ASSERT_TRUE(static_cast<bool>(opened)) << llvm::toString(opened.takeError());
    client = std::move(*opened);
  }
  std::vector<double> run(const std::string &entry, std::vector<double> in,
                          const std::string &object = kObjectA) {
    auto out = client->launch(entry, object, {vec(in)}, {{1, 8}});
    EXPECT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    if (!out || out->size() != 1)
      return {};
    EXPECT_EQ((*out)[0].sizes, std::vector<int64_t>{int64_t(in.size())});
    return (*out)[0].as<double>();
  }
  JitlinkExecutor jitlink;
  LocalExecutor server;
  std::unique_ptr<ExecutorClient> client;
  std::string log;
};
} // namespace

TEST_P(InteropTest, NegotiatesTheKindOfExecutor) {
  connect();
  ASSERT_TRUE(client);
  EXPECT_EQ(client->executorKind(), GetParam() == Peer::LlvmJitlinkExecutor
                                        ? ExecutorKind::OrcExecutor
                                        : ExecutorKind::CatalystExecutor);
  EXPECT_FALSE(std::string(executorKindSummary(client->executorKind())).empty());
  EXPECT_STREQ(executorKindName(client->executorKind()),
               GetParam() == Peer::LlvmJitlinkExecutor ? "ORC executor"
                                                       : "catalyst-executor");
}

TEST_P(InteropTest, LaunchesGetTheRightNumbers) {
  connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectB)));
  EXPECT_EQ(run("k", {1, 2, 3, 4}), (std::vector<double>{2, 4, 6, 8}));
  EXPECT_EQ(run("square", {1, 2, 3, 4}), (std::vector<double>{1, 4, 9, 16}));
  // The same entry name in another object.
  EXPECT_EQ(run("k", {1, 2}, kObjectB), (std::vector<double>{101, 102}));
  // A strided result (stride 2) comes back dense.
  EXPECT_EQ(run("evens", {1, 2, 3}), (std::vector<double>{1, 2, 3}));
  // A result that is the input itself (it lives in the launch's block and
  // must not be freed twice).
  EXPECT_EQ(run("identity", {7, 8}), (std::vector<double>{7, 8}));
  // Many launches: every block and result buffer is freed on the executor.
  for (int i = 0; i < 200; ++i)
    ASSERT_EQ(run("square", {double(i)}), std::vector<double>{double(i) * i});
}

TEST_P(InteropTest, ScalarsGoByPointerOnEveryExecutor) {
  connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  HostMemRef a = HostMemRef::of<double>({}, {2});
  a.scalar = true;
  HostMemRef n = HostMemRef::of<int32_t>({}, {10});
  n.scalar = true;
  ResultSpec total{0, 8, /*scalar=*/true}, count{0, 4, /*scalar=*/true};
  for (int i = 0; i < 50; ++i) {
    auto out = client->launch("scaled", kObjectA, {a, vec({1, 2, 3}), n},
                              {{1, 8}, total, count});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    ASSERT_EQ(out->size(), 3u);
    EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{12, 14, 16}));
    EXPECT_TRUE((*out)[1].scalar);
    EXPECT_TRUE((*out)[1].sizes.empty());
    EXPECT_EQ((*out)[1].as<double>(), std::vector<double>{42});
    EXPECT_EQ((*out)[2].as<int32_t>(), std::vector<int32_t>{3});
  }
  // A scalar result must have a C scalar's size.
  auto odd = client->launch("scaled", kObjectA, {a, vec({1}), n},
                            {{1, 8}, {0, 3, true}, count});
  ASSERT_FALSE(static_cast<bool>(odd));
  EXPECT_NE(llvm::toString(odd.takeError()).find("of 3 bytes (1, 2, 4 or 8)"),
            std::string::npos);
}

TEST_P(InteropTest, DescriptorLaunchesCarryScalars) {
  // The C ABI's path (issue 40): a scalar input is a rank-0 view of its
  // value, a scalar output's value is stored at its view's base.
  connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto entry = client->symbolAddress("_catalyst_pyface_scaled", kObjectA);
  ASSERT_TRUE(static_cast<bool>(entry)) << llvm::toString(entry.takeError());
  executor_test::expectScaledDescriptorLaunches(*client, *entry, 2, 10,
                                                {1, 2, 3}, 20);
}

TEST_P(InteropTest, DescriptorLaunchesReadStridedInputs) {
  connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  // Input: every other element of {1, 0, 2, 0, 3, 0}.
  double data[] = {1, 0, 2, 0, 3, 0};
  int64_t in[5] = {0, 0, 0, 3, 2};
  reinterpret_cast<double **>(in)[0] = data;
  reinterpret_cast<double **>(in)[1] = data;
  int64_t out[5] = {};
  auto entry = client->symbolAddress("_catalyst_pyface_square", kObjectA);
  ASSERT_TRUE(static_cast<bool>(entry)) << llvm::toString(entry.takeError());
  llvm::Error err = client->launchDescriptorsAt(
      *entry, "_catalyst_pyface_square", {DescriptorView{in, 1}}, {8},
      {DescriptorView{out, 1}}, {8});
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  DescriptorView result{out, 1};
  ASSERT_EQ(result.size(0), 3);
  const double *values = reinterpret_cast<const double *>(result.aligned());
  EXPECT_EQ(std::vector<double>(values, values + 3),
            (std::vector<double>{1, 4, 9}));
  std::free(result.allocated()); // the caller's, as the C ABI says
}

TEST_P(InteropTest, AsyncLaunchesOverlapAndAwait) {
  connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  // Each rendezvous returns only once both run at the same time.
  auto first = client->launchAsync("rendezvous", kObjectA);
  auto second = client->launchAsync("rendezvous", kObjectA);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(run("k", {5}), std::vector<double>{10});
  EXPECT_FALSE(static_cast<bool>(client->await(*first)));
  EXPECT_FALSE(static_cast<bool>(client->await(*second)));
  llvm::Error unknown = client->await(12345);
  ASSERT_TRUE(static_cast<bool>(unknown));
  EXPECT_NE(llvm::toString(std::move(unknown)).find("unknown ticket 12345"),
            std::string::npos);
}

TEST_P(InteropTest, CallsReachWrapperFunctionsInObjects) {
  connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  std::string input = "executor.call round trip";
  auto reply = client->call("echo_reversed",
                            llvm::ArrayRef<char>(input.data(), input.size()));
  ASSERT_TRUE(static_cast<bool>(reply)) << llvm::toString(reply.takeError());
  EXPECT_EQ(std::string(reply->rbegin(), reply->rend()), input);
}

TEST_P(InteropTest, AssetsWhereTheExecutorStoresThem) {
  connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kAssets)));
  std::vector<double> weights = {0.5, 1.5, 2.5};
  llvm::ArrayRef<char> bytes(reinterpret_cast<const char *>(weights.data()),
                             weights.size() * sizeof(double));
  llvm::Error err = client->storeAsset("weights.bin", bytes);
  if (GetParam() == Peer::LlvmJitlinkExecutor) {
    ASSERT_TRUE(static_cast<bool>(err));
    EXPECT_NE(llvm::toString(std::move(err)).find(
                  "storing asset 'weights.bin': an ORC executor has no asset "
                  "storage"),
              std::string::npos);
    return;
  }
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  if (GetParam() == Peer::CatalystExecutor)
    return; // kept under $TMPDIR/catalyst-assets/PID, not the working directory
  auto out = client->launch("weights_cwd", kAssets, {}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), weights);
  llvm::Error hostile = client->storeAsset("..", bytes);
  ASSERT_TRUE(static_cast<bool>(hostile));
  EXPECT_NE(llvm::toString(std::move(hostile)).find("refused asset name '..'"),
            std::string::npos);
}

TEST_P(InteropTest, ACrashingKernelLosesTheSessionWithAMessage) {
  connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto crashed = client->launch("crash", kObjectA, {}, {});
  ASSERT_FALSE(static_cast<bool>(crashed));
  std::string message = llvm::toString(crashed.takeError());
  EXPECT_NE(message.find("lost the session during launch of crash"),
            std::string::npos)
      << message;
  if (GetParam() == Peer::CatalystServices)
    // executor-server reports the signal whichever services it publishes.
    EXPECT_NE(message.find("crashed with signal 11"), std::string::npos)
        << message;
  else
    EXPECT_NE(message.find("s do not say which, nor which kernel or where"),
              std::string::npos)
        << message;
}

INSTANTIATE_TEST_SUITE_P(Executors, InteropTest,
                         ::testing::Values(Peer::LlvmJitlinkExecutor,
                                           Peer::CatalystServices,
                                           Peer::CatalystExecutor),
                         peerName);

// llvm-jitlink-executor started by the client (ExecutorClient::spawn, over
// a socket pair): its parent learns how it ended, so a kernel that kills it
// is reported with the kernel and the signal, and the report says what an
// ORC executor cannot tell (where).
TEST(SpawnedOrcExecutorTest, LaunchesAndReportsTheKernelThatKilledIt) {
  auto client = ExecutorClient::spawn(LLVM_JITLINK_EXECUTOR_PATH);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  EXPECT_EQ((*client)->executorKind(), ExecutorKind::OrcExecutor);
  int64_t pid = (*client)->sessionPid();
  ASSERT_GT(pid, 0);
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("k", kObjectA,
                               {HostMemRef::of<double>({4}, {1, 2, 3, 4})},
                               {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{2, 4, 6, 8}));

  auto crashed = (*client)->launch("crash", kObjectA, {}, {});
  ASSERT_FALSE(static_cast<bool>(crashed));
  std::string kernel, message;
  int signal = 0;
  llvm::handleAllErrors(
      crashed.takeError(),
      [&](const KernelCrashed &e) {
        kernel = e.kernel;
        signal = e.signal;
        message = e.message;
      },
      [&](const llvm::ErrorInfoBase &e) { message = "not KernelCrashed: " + e.message(); });
  EXPECT_EQ(kernel, "crash") << message;
  EXPECT_EQ(signal, SIGSEGV) << message;
  EXPECT_NE(message.find("lost the session during launch of crash: "
                         "llvm-jitlink-executor (pid " +
                         std::to_string(pid) +
                         ", started by this client) was killed by signal 11 "
                         "(Segmentation fault) while running kernel crash; "
                         "ORC executors report no backtrace, so where it "
                         "crashed (the faulting address, the kernel's .mlir "
                         "line) is not known"),
            std::string::npos)
      << message;
  // The process is gone (reaped by the client).
  EXPECT_NE(::kill(static_cast<pid_t>(pid), 0), 0);
}

TEST(SpawnedOrcExecutorTest, AnExecutorThatCannotStartIsAnError) {
  auto client = ExecutorClient::spawn("/nonexistent/llvm-jitlink-executor");
  ASSERT_FALSE(static_cast<bool>(client));
  std::string message = llvm::toString(client.takeError());
  EXPECT_NE(message.find("executor /nonexistent/llvm-jitlink-executor: cannot "
                         "start it: no executable file there"),
            std::string::npos)
      << message;
}
