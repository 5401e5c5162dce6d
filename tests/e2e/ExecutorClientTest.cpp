//===- ExecutorClientTest.cpp - ExecutorClient against a real server ------===//
//
// Every test starts a real executor-server on a free loopback port and loads
// real objects (kernels_a.o, kernels_b.o, compiled from C at build time).
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "ScaledLaunch.h"
#include "TestFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <thread>
#include <unistd.h>

using namespace executor_studio::runtime;

using executor_test::readFile;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;
const std::string kObjectB = KERNELS_B_OBJECT;

class ExecutorClientTest : public ::testing::Test {
protected:
  void SetUp() override {
    log = ::testing::TempDir() + "/executor-" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name() +
          ".log";
  }
  void TearDown() override {
    server.stop();
    if (!assetRoot.empty())
      llvm::sys::fs::remove_directories(assetRoot);
  }
  void startServer(std::vector<std::string> args = {}) {
    // Session directories go under a root of the test's own: a server that
    // is killed (SIGKILL) cannot remove them.
    assetRoot = log + ".assets";
    llvm::sys::fs::create_directories(assetRoot);
    // Sessions of a server started as root run as nobody, who must reach it.
    chmod(assetRoot.c_str(), 0755);
    args.push_back("--asset-root");
    args.push_back(assetRoot);
    llvm::Error err = server.start(kServer, args, log);
    ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  }
  std::unique_ptr<ExecutorClient> connect(ClientOptions options = {}) {
    auto client = ExecutorClient::open(server.address(), options);
    EXPECT_TRUE(static_cast<bool>(client))
        << llvm::toString(client.takeError());
    return client ? std::move(*client) : nullptr;
  }
  static HostMemRef vec(std::vector<double> values) {
    return HostMemRef::of<double>({static_cast<int64_t>(values.size())}, values);
  }
  LocalExecutor server;
  std::string log, assetRoot;
};
} // namespace

TEST_F(ExecutorClientTest, LaunchRunsTheKernelOnTheExecutor) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto out = client->launch("k", kObjectA, {vec({1, 2, 3, 4})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].sizes, std::vector<int64_t>{4});
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{2, 4, 6, 8}));
  // A kernel that returns its input: the executor must not free it twice.
  auto same = client->launch("identity", kObjectA, {vec({7, 8})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(same)) << llvm::toString(same.takeError());
  EXPECT_EQ((*same)[0].as<double>(), (std::vector<double>{7, 8}));
  ASSERT_FALSE(static_cast<bool>(client->close()));
  server.stop();
  std::string text = readFile(log);
  EXPECT_NE(text.find("opened"), std::string::npos) << text;
  EXPECT_NE(text.find("object loaded"), std::string::npos) << text;
  // The per-launch lines name the kernel.
  EXPECT_NE(text.find("launch 1 in, 1 out, 64 bytes back (k)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("launch 1 in, 1 out, 48 bytes back (identity)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("closed"), std::string::npos) << text;
}

TEST_F(ExecutorClientTest, TwoObjectsMayExportTheSameEntry) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectB)));
  auto a = client->launch("k", kObjectA, {vec({1, 2})}, {{1, 8}});
  auto b = client->launch("k", kObjectB, {vec({1, 2})}, {{1, 8}});
  ASSERT_TRUE(a && b);
  EXPECT_EQ((*a)[0].as<double>(), (std::vector<double>{2, 4}));
  EXPECT_EQ((*b)[0].as<double>(), (std::vector<double>{101, 102}));
}

TEST_F(ExecutorClientTest, SendingAnObjectTwiceDoesNothing) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  EXPECT_TRUE(client->hasObject(kObjectA));
  client.reset();
  server.stop();
  std::string text = readFile(log);
  EXPECT_EQ(text.find("object loaded"), text.rfind("object loaded")) << text;
}

TEST_F(ExecutorClientTest, AsyncLaunchesOverlap) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  // Each rendezvous returns only once both are running at the same time.
  auto first = client->launchAsync("rendezvous", kObjectA);
  auto second = client->launchAsync("rendezvous", kObjectA);
  ASSERT_TRUE(first && second);
  // The session keeps serving synchronous launches meanwhile.
  auto out = client->launch("k", kObjectA, {vec({5})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{10});
  EXPECT_FALSE(static_cast<bool>(client->await(*first)));
  EXPECT_FALSE(static_cast<bool>(client->await(*second)));
  llvm::Error unknown = client->await(12345);
  ASSERT_TRUE(static_cast<bool>(unknown));
  EXPECT_NE(llvm::toString(std::move(unknown)).find("unknown ticket 12345"),
            std::string::npos);
}

TEST_F(ExecutorClientTest, CallRoundTrip) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  std::string input = "executor.call round trip";
  auto reply = client->call("echo_reversed",
                            llvm::ArrayRef<char>(input.data(), input.size()));
  ASSERT_TRUE(static_cast<bool>(reply)) << llvm::toString(reply.takeError());
  EXPECT_EQ(std::string(reply->rbegin(), reply->rend()), input);
  // Replies of up to 8 bytes travel inside the buffer struct itself.
  std::string small = "tiny";
  auto inline_ = client->call("echo_reversed",
                              llvm::ArrayRef<char>(small.data(), small.size()));
  ASSERT_TRUE(static_cast<bool>(inline_)) << llvm::toString(inline_.takeError());
  EXPECT_EQ(std::string(inline_->begin(), inline_->end()), "ynit");
  auto missing = client->call("no_such_symbol", {});
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("unknown symbol no_such_symbol"),
            std::string::npos);
}

TEST_F(ExecutorClientTest, ConnectionRefusedFailsFastAndNamesTheAddress) {
  std::string address;
  int fd = bindLoopback(/*listen=*/false, address);
  ASSERT_GE(fd, 0);
  close(fd); // nothing listens there now
  ClientOptions options;
  options.connectTimeout = std::chrono::milliseconds(500);
  auto start = std::chrono::steady_clock::now();
  auto client = ExecutorClient::open(address, options);
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(static_cast<bool>(client));
  std::string message = llvm::toString(client.takeError());
  EXPECT_NE(message.find(address), std::string::npos) << message;
  EXPECT_NE(message.find("Connection refused (is an executor-server "
                         "listening there?)"),
            std::string::npos)
      << message;
  EXPECT_LT(elapsed, 2 * options.connectTimeout);
}

TEST_F(ExecutorClientTest, SilentPeerTimesOutInsteadOfHanging) {
  // Something that accepts connections but never speaks ORC.
  std::string address;
  int fd = bindLoopback(/*listen=*/true, address);
  ASSERT_GE(fd, 0);
  ClientOptions options;
  options.handshakeTimeout = std::chrono::milliseconds(300);
  auto start = std::chrono::steady_clock::now();
  auto client = ExecutorClient::open(address, options);
  auto elapsed = std::chrono::steady_clock::now() - start;
  close(fd);
  ASSERT_FALSE(static_cast<bool>(client));
  EXPECT_NE(llvm::toString(client.takeError()).find("did not start an ORC session"),
            std::string::npos);
  EXPECT_LT(elapsed, 4 * options.handshakeTimeout);
}

TEST_F(ExecutorClientTest, AwaitDoesNotHoldUpOtherLaunches) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto token = client->launchAsync("nap", kObjectA); // sleeps 2 s
  ASSERT_TRUE(static_cast<bool>(token));
  std::atomic<bool> awaited{false};
  std::thread waiter([&] {
    EXPECT_FALSE(static_cast<bool>(client->await(*token)));
    awaited = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // While another thread awaits the nap, launches still go through: this
  // one comes back before the await does.
  auto out = client->launch("k", kObjectA, {vec({21})}, {{1, 8}});
  EXPECT_FALSE(awaited.load());
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{42});
  waiter.join();
  EXPECT_TRUE(awaited.load());
}

TEST_F(ExecutorClientTest, ALongLaunchDoesNotHoldUpOtherLaunches) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  // A synchronous launch that runs 2 s on the executor's reading thread:
  // the reading passes on, so the session keeps serving other launches.
  std::atomic<bool> napped{false};
  std::thread sleeper([&] {
    auto out = client->launch("nap", kObjectA, {}, {});
    EXPECT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    napped = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) {
    auto out = client->launch("k", kObjectA, {vec({double(i)})}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{2.0 * i});
  }
  EXPECT_FALSE(napped.load());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  sleeper.join();
  EXPECT_TRUE(napped.load());
}

TEST_F(ExecutorClientTest, AddressMapRedirects) {
  startServer();
  setenv("EXECUTOR_ADDRESS_MAP", ("other=1.2.3.4:5,ADDR:PORT=" + server.address()).c_str(), 1);
  auto client = ExecutorClient::open("ADDR:PORT");
  unsetenv("EXECUTOR_ADDRESS_MAP");
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  EXPECT_EQ((*client)->connectedAddress(), server.address());
}

TEST_F(ExecutorClientTest, CorruptObjectFailsAndTheSessionStaysUsable) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  std::string garbage = "\x7f" "ELF this is not an object file at all";
  llvm::Error err = client->sendBinary(
      "corrupt.o", llvm::ArrayRef<char>(garbage.data(), garbage.size()));
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("corrupt.o"), std::string::npos);
  EXPECT_FALSE(client->hasObject("corrupt.o"));
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto out = client->launch("k", kObjectA, {vec({3})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{6});
}

TEST_F(ExecutorClientTest, UnknownEntryAndUnsentObjectAreErrors) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto unknown = client->launch("nope", kObjectA, {}, {});
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_NE(llvm::toString(unknown.takeError()).find("has no entry _catalyst_pyface_nope"),
            std::string::npos);
  auto unsent = client->launch("k", kObjectB, {vec({1})}, {{1, 8}});
  ASSERT_FALSE(static_cast<bool>(unsent));
  EXPECT_NE(llvm::toString(unsent.takeError()).find("send_binary it first"),
            std::string::npos);
  // The client's own read fails: it says so, and blames no executor.
  llvm::Error missing = client->sendBinary("/no/such/object.o");
  ASSERT_TRUE(static_cast<bool>(missing));
  EXPECT_EQ(llvm::toString(std::move(missing)),
            "cannot read object /no/such/object.o: No such file or directory "
            "(this program does not embed it, so it reads the file when it "
            "runs)");
}

TEST_F(ExecutorClientTest, CrashingKernelEndsOnlyItsSession) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto crashed = client->launch("crash", kObjectA, {}, {});
  ASSERT_FALSE(static_cast<bool>(crashed));
  std::string message = llvm::toString(crashed.takeError());
  EXPECT_NE(message.find("lost the session"), std::string::npos) << message;
  EXPECT_NE(message.find(server.address()), std::string::npos) << message;
  // The kernel the user launched and the signal, from the server, before
  // the connection went; no wrapper symbol in that line (the backtrace
  // below it names the frames as they are: the wrapper is one).
  std::string first = message.substr(0, message.find('\n'));
  EXPECT_NE(first.find("kernel crash crashed with signal 11 (Segmentation "
                       "fault)"),
            std::string::npos)
      << message;
  EXPECT_EQ(first.find("_catalyst_pyface"), std::string::npos) << message;
  EXPECT_EQ(first.find("__executor_studio"), std::string::npos) << message;
  // The frames: the kernel's (the C object has no debug info: its name and
  // the hint), then the executor's.
  EXPECT_NE(message.find("\n  #0 "), std::string::npos) << message;
  EXPECT_NE(message.find("kernels_a.o"), std::string::npos) << message;
  EXPECT_NE(message.find("rebuild with -g for lines"), std::string::npos)
      << message;
  EXPECT_NE(message.find("in executor-server"), std::string::npos) << message;
  client.reset();
  // The server keeps serving new sessions.
  auto again = connect();
  ASSERT_TRUE(again);
  ASSERT_FALSE(static_cast<bool>(again->sendBinary(kObjectA)));
  auto out = again->launch("k", kObjectA, {vec({1})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  again.reset();
  server.stop();
  std::string text = readFile(log);
  EXPECT_NE(text.find("ended by signal 11"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel crash crashed with signal 11"), std::string::npos)
      << text;
}

TEST_F(ExecutorClientTest, CrashInAnAsyncLaunchNamesTheKernelAtAwait) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto token = client->launchAsync("crash", kObjectA);
  // The kernel may crash before the reply that started it is read: then
  // launch_async itself reports it, else the await does.
  std::string message;
  if (!token) {
    message = llvm::toString(token.takeError());
  } else {
    llvm::Error err = client->await(*token);
    ASSERT_TRUE(static_cast<bool>(err));
    message = llvm::toString(std::move(err));
  }
  EXPECT_NE(message.find("lost the session"), std::string::npos) << message;
  EXPECT_NE(message.find("kernel crash crashed with signal 11"),
            std::string::npos)
      << message;
}

TEST_F(ExecutorClientTest, MalformedAddressMapEntriesAreRejected) {
  startServer();
  for (std::string map : {"ADDR:PORT", "=127.0.0.1:1",
                          "ADDR:PORT=127.0.0.1", "ADDR:PORT=host:http",
                          "ADDR:PORT=127.0.0.1:99999"}) {
    setenv("EXECUTOR_ADDRESS_MAP", (map + ",other=" + server.address()).c_str(),
           1);
    auto client = ExecutorClient::open("other");
    unsetenv("EXECUTOR_ADDRESS_MAP");
    ASSERT_FALSE(static_cast<bool>(client)) << map;
    std::string message = llvm::toString(client.takeError());
    EXPECT_NE(message.find("EXECUTOR_ADDRESS_MAP entry '" + map +
                           "' is not FROM=HOST:PORT"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("separated by ','"), std::string::npos) << message;
  }
  // Separated by commas, the first match wins.
  setenv("EXECUTOR_ADDRESS_MAP",
         ("a:1=" + server.address() + ",a:1=127.0.0.1:1").c_str(), 1);
  auto client = ExecutorClient::open("a:1");
  unsetenv("EXECUTOR_ADDRESS_MAP");
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
}

TEST_F(ExecutorClientTest, AnUnmappedPlaceholderSaysHowToMapIt) {
  unsetenv("EXECUTOR_ADDRESS_MAP");
  auto client = ExecutorClient::open("ADDR:PORT");
  ASSERT_FALSE(static_cast<bool>(client));
  std::string message = llvm::toString(client.takeError());
  EXPECT_NE(message.find("executor ADDR:PORT: no EXECUTOR_ADDRESS_MAP entry "
                         "maps this address"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("EXECUTOR_ADDRESS_MAP='ADDR:PORT=HOST:PORT'"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find("Servname"), std::string::npos) << message;
}

// Issue 40: a map that is set but maps nothing names its entries and why
// each does not match, not only what connecting to the address said.
TEST_F(ExecutorClientTest, AnAddressMapThatMatchesNothingSaysWhy) {
  setenv("EXECUTOR_ADDRESS_MAP",
         "127.0.0.1=127.0.0.1:2,127.0.0.1:7=127.0.0.1:2,gpu:1=127.0.0.1:2", 1);
  auto client = ExecutorClient::open("127.0.0.1:1");
  unsetenv("EXECUTOR_ADDRESS_MAP");
  ASSERT_FALSE(static_cast<bool>(client));
  EXPECT_EQ(llvm::toString(client.takeError()),
            "executor 127.0.0.1:1: cannot connect to 127.0.0.1:1: Connection "
            "refused (is an executor-server listening there?); "
            "EXECUTOR_ADDRESS_MAP has no entry for 127.0.0.1:1: "
            "'127.0.0.1=127.0.0.1:2' does not match ('127.0.0.1' is its host "
            "alone; FROM is the whole address, '127.0.0.1:1'); "
            "'127.0.0.1:7=127.0.0.1:2' does not match ('127.0.0.1:7' has port "
            "7, not 1); 'gpu:1=127.0.0.1:2' does not match ('gpu:1' is another "
            "address)");
}

TEST_F(ExecutorClientTest, ServerRefusesAnOutOfRangePort) {
  LocalExecutor bad;
  llvm::Error err = bad.start(kServer, {"--bind", "127.0.0.1:99999"}, log);
  ASSERT_TRUE(static_cast<bool>(err));
  llvm::consumeError(std::move(err));
  EXPECT_NE(readFile(log).find(
                "address '127.0.0.1:99999' has port 99999 outside [0, 65535]"),
            std::string::npos)
      << readFile(log);
}

TEST_F(ExecutorClientTest, ServerKilledDuringALaunchIsAnErrorNotAHang) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto token = client->launchAsync("nap", kObjectA);
  ASSERT_TRUE(static_cast<bool>(token));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  server.kill();
  llvm::Error err = client->await(*token);
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("lost the session"),
            std::string::npos);
  auto after = client->launch("k", kObjectA, {vec({1})}, {{1, 8}});
  EXPECT_FALSE(static_cast<bool>(after));
  llvm::consumeError(after.takeError());
}

TEST_F(ExecutorClientTest, TokenIsRequiredWhenConfigured) {
  std::string tokenFile = ::testing::TempDir() + "/executor-token";
  {
    std::ofstream(tokenFile) << "s3cret-0123456789abcdef-s3cret\n";
  }
  chmod(tokenFile.c_str(), 0600);
  // SecurityTest covers the delay after a wrong token.
  startServer({"--token-file", tokenFile, "--auth-failure-delay", "0"});
  ClientOptions wrong;
  wrong.token = "a-wrong-guess-0123456789abcdef";
  auto refused = ExecutorClient::open(server.address(), wrong);
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_NE(llvm::toString(refused.takeError()).find("wrong or missing token"),
            std::string::npos);
  ClientOptions right;
  right.token = "s3cret-0123456789abcdef-s3cret";
  auto accepted = ExecutorClient::open(server.address(), right);
  ASSERT_TRUE(static_cast<bool>(accepted)) << llvm::toString(accepted.takeError());
  ASSERT_FALSE(static_cast<bool>((*accepted)->sendBinary(kObjectA)));
  accepted->reset();
  server.stop();
  EXPECT_NE(readFile(log).find(": wrong or missing token"),
            std::string::npos);
}

TEST_F(ExecutorClientTest, RemoteBindNeedsATokenFile) {
  LocalExecutor remote;
  llvm::Error err = remote.start(kServer, {"--bind", "0.0.0.0:0"}, log);
  ASSERT_TRUE(static_cast<bool>(err));
  llvm::consumeError(std::move(err));
  EXPECT_NE(readFile(log).find("not a loopback address"), std::string::npos);
}

TEST_F(ExecutorClientTest, ScalarLaunchesOnExecutorServerUseTheOrcServices) {
  // executor-server's own launch carries memrefs only: a launch with
  // scalars links the client's ORC services into the session once, then
  // goes through them, as on any ORC executor.
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  HostMemRef a = HostMemRef::of<double>({}, {0.5});
  a.scalar = true;
  HostMemRef n = HostMemRef::of<int32_t>({}, {1});
  n.scalar = true;
  for (int i = 0; i < 3; ++i) {
    auto out = client->launch("scaled", kObjectA, {a, vec({2, 4}), n},
                              {{1, 8}, {0, 8, true}, {0, 4, true}});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{2, 3}));
    EXPECT_EQ((*out)[1].as<double>(), std::vector<double>{5});
    EXPECT_EQ((*out)[2].as<int32_t>(), std::vector<int32_t>{2});
  }
  // Memref-only launches still take executor-server's one-trip launch.
  auto out = client->launch("k", kObjectA, {vec({5})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{10});
}

TEST_F(ExecutorClientTest, DescriptorLaunchesCarryScalarsOnExecutorServer) {
  // The C ABI's path (issue 40): scalar inputs as rank-0 views of their
  // values, scalar results stored at their views' bases, in one trip.
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto entry = client->symbolAddress("_catalyst_pyface_scaled", kObjectA);
  ASSERT_TRUE(static_cast<bool>(entry)) << llvm::toString(entry.takeError());
  executor_test::expectScaledDescriptorLaunches(*client, *entry, 0.5, 1,
                                                {2, 4}, 3);
  // (The session's log reaches the file through its keeper: a moment later.)
  for (int i = 0; i < 100 && readFile(log).find("launch 3 in, 3 out") ==
                                 std::string::npos;
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_NE(readFile(log).find("launch 3 in, 3 out"), std::string::npos)
      << readFile(log);
}

TEST_F(ExecutorClientTest, InterruptFromAnotherThreadEndsACallInFlight) {
  // The session waits for a debugger before the launch: the call stays in
  // flight until another thread interrupts the client, which ends it with
  // an error; the owner then closes the client (what the studio does at
  // exit while a launch waits for a debugger; under ASan, closing instead
  // freed what the waiting call used).
  startServer({"--debug-wait"});
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  std::atomic<bool> returned{false};
  std::string error;
  std::thread launcher([&] {
    auto out = client->launch("k", kObjectA, {vec({1, 2})}, {{1, 8}});
    if (!out)
      error = llvm::toString(out.takeError());
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(returned.load()) << "the launch did not wait for a debugger";
  client->interrupt();
  launcher.join();
  EXPECT_FALSE(error.empty()) << "the interrupted launch succeeded";
  EXPECT_FALSE(client->isOpen());
  EXPECT_FALSE(static_cast<bool>(client->close()));
  client->interrupt(); // after close: nothing to end, nothing touched
}
