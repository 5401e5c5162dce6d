//===- MalformedRequestTest.cpp - requests a client should not send -------===//
//
// Issue 22, item 6, against a real executor-server: malformed requests to
// its services (a launch claiming more inputs or results than it holds, an
// alloc request of the wrong size, a wild or repeated free) get an error
// reply and the session goes on; what a SIGKILLed server leaves behind (its
// sessions' asset directories, its Unix socket) goes at the next start; an
// asset directory a session renamed is still removed.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "ExecutorRuntime/Wire.h"
#include "TestFiles.h"

#include "llvm/Support/FileSystem.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace executor_studio::runtime;
namespace fs = std::filesystem;

using executor_test::readFile;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;
#define KERNELS_ASSETS_OBJECT ASSETS_OBJECT

/// Little-endian words, as Wire.h lays them out.
template <typename T> void put(std::vector<char> &out, T value) {
  const char *bytes = reinterpret_cast<const char *>(&value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

/// The status word of a reply of our services and the rest (the message of
/// an error, the words of a result).
struct Reply {
  uint64_t status = ~uint64_t(0);
  std::string rest;
};
Reply decode(const std::vector<char> &bytes) {
  Reply reply;
  if (bytes.size() >= 8) {
    std::memcpy(&reply.status, bytes.data(), 8);
    reply.rest.assign(bytes.data() + 8, bytes.size() - 8);
  }
  return reply;
}

std::vector<std::string> entries(const std::string &directory) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(directory, ec))
    names.push_back(entry.path().filename().string());
  return names;
}

bool waitUntil(std::function<bool()> done, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done())
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

#define EXPECT_CONTAINS(text, part)                                            \
  EXPECT_NE(std::string(text).find(part), std::string::npos)                   \
      << "'" << (part) << "' not in:\n"                                        \
      << (text)

class MalformedRequestTest : public ::testing::Test {
protected:
  void SetUp() override {
    base = ::testing::TempDir() + "/executor-malformed-" +
           std::to_string(getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(base);
    fs::create_directories(base + "/assets");
    fs::permissions(base + "/assets", fs::perms::all | fs::perms::sticky_bit);
    log = base + "/server.log";
  }
  void TearDown() override {
    server.stop();
    std::error_code ec;
    fs::remove_all(base, ec);
  }
  void startServer(std::vector<std::string> args = {}) {
    args.push_back("--asset-root");
    args.push_back(base + "/assets");
    llvm::Error err = server.start(kServer, args, log);
    ASSERT_FALSE(static_cast<bool>(err))
        << llvm::toString(std::move(err)) << "\n"
        << readFile(log);
  }
  std::unique_ptr<ExecutorClient> connect() {
    auto client = ExecutorClient::open(server.address());
    EXPECT_TRUE(static_cast<bool>(client))
        << llvm::toString(client.takeError());
    return client ? std::move(*client) : nullptr;
  }
  /// Calls the bootstrap wrapper `name` with `request`.
  Reply call(ExecutorClient &client, const char *name,
             const std::vector<char> &request) {
    auto address = client.bootstrapSymbol(name);
    EXPECT_TRUE(static_cast<bool>(address))
        << llvm::toString(address.takeError());
    if (!address)
      return {};
    auto bytes = client.callAddress(*address, request);
    EXPECT_TRUE(static_cast<bool>(bytes)) << llvm::toString(bytes.takeError());
    if (!bytes)
      return {};
    return decode(*bytes);
  }
  /// The session still launches.
  void expectLaunchWorks(ExecutorClient &client) {
    auto out = client.launch(
        "k", kObjectA, {HostMemRef::of<double>({2}, std::vector<double>{1, 2})},
        {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{2, 4}));
  }
  LocalExecutor server;
  std::string base, log;
};
} // namespace

TEST_F(MalformedRequestTest, ALaunchClaimingMoreThanItHoldsGetsAnErrorReply) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto entry = client->entryAddress("k", kObjectA);
  ASSERT_TRUE(static_cast<bool>(entry)) << llvm::toString(entry.takeError());
  auto request = [&](uint32_t inputs, uint32_t results) {
    std::vector<char> out;
    put<uint64_t>(out, kLaunchMagic);
    put<uint64_t>(out, *entry);
    put<uint32_t>(out, inputs);
    put<uint32_t>(out, results);
    put<uint32_t>(out, 1);
    out.push_back('k');
    return out;
  };
  // 2^32-1 inputs, none there.
  Reply inputs = call(*client, kLaunchWrapperName, request(0xffffffffu, 1));
  EXPECT_EQ(inputs.status, kReplyError);
  EXPECT_CONTAINS(inputs.rest, "malformed launch request (input 0)");
  // 2^32-1 results, none there: refused before anything is sized by it.
  Reply results = call(*client, kLaunchWrapperName, request(0, 0xffffffffu));
  EXPECT_EQ(results.status, kReplyError);
  EXPECT_CONTAINS(results.rest,
                  "malformed launch request (4294967295 results in 0 bytes)");
  expectLaunchWorks(*client);
  ASSERT_FALSE(static_cast<bool>(client->close()));
  server.stop();
  std::string text = readFile(log);
  EXPECT_EQ(text.find("ended by signal"), std::string::npos) << text;
}

// tests/fuzz/open-crashes/fuzz-services-crash-37495ad4...: an alloc request
// of 6 bytes. The service answered it correctly (an error); the harness took
// the reply for an address and freed it. A client that does the same (a
// wild free), or frees a block twice, is refused now (the server's one
// alloc/free pair, catalyst_remote_*: ORC's out-of-band errors do not cross
// the wire, so the refusal is in the log), where libc aborted the session.
TEST_F(MalformedRequestTest, AWildOrRepeatedFreeGetsAnErrorReply) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kObjectA)));
  auto rawCall = [&](const char *name, const std::vector<char> &request) {
    auto address = client->bootstrapSymbol(name);
    EXPECT_TRUE(static_cast<bool>(address))
        << llvm::toString(address.takeError());
    if (!address)
      return std::vector<char>();
    auto bytes = client->callAddress(*address, request);
    EXPECT_TRUE(static_cast<bool>(bytes)) << llvm::toString(bytes.takeError());
    return bytes ? *bytes : std::vector<char>();
  };
  std::vector<char> sixBytes = {0x40, 0, 0, 0, 0, 0};
  // No address for a request that holds no size.
  EXPECT_TRUE(rawCall("catalyst_remote_alloc", sixBytes).empty());
  // A wild free: an address alloc never returned, 16-aligned and unmapped.
  std::vector<char> wild;
  put<uint64_t>(wild, 0x10);
  EXPECT_TRUE(rawCall("catalyst_remote_free", wild).empty());
  // A block freed twice.
  std::vector<char> size;
  put<uint64_t>(size, 64);
  std::vector<char> address = rawCall("catalyst_remote_alloc", size);
  ASSERT_EQ(address.size(), 8u);
  EXPECT_TRUE(rawCall("catalyst_remote_free", address).empty());
  EXPECT_TRUE(rawCall("catalyst_remote_free", address).empty());
  // A free request of the wrong size.
  EXPECT_TRUE(rawCall("catalyst_remote_free", sixBytes).empty());
  expectLaunchWorks(*client);
  ASSERT_FALSE(static_cast<bool>(client->close()));
  server.stop();
  std::string text = readFile(log);
  EXPECT_EQ(text.find("ended by signal"), std::string::npos) << text;
  EXPECT_CONTAINS(text, "catalyst_remote_free of 0x10 refused: not a block "
                        "the session allocated");
  EXPECT_CONTAINS(text, "refused: it was freed already");
  EXPECT_CONTAINS(text, "malformed catalyst_remote_free request");
}

TEST_F(MalformedRequestTest, WhatAKilledServerLeftIsRemovedAtTheNextStart) {
  std::string socket = base + "/executor.sock";
  startServer({"--bind", "unix:" + socket});
  {
    auto client = ExecutorClient::open("unix:" + socket);
    ASSERT_TRUE(static_cast<bool>(client))
        << llvm::toString(client.takeError());
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    // The session's asset directory is there while it lives.
    ASSERT_TRUE(waitUntil(
        [&] { return entries(base + "/assets").size() == 1; },
        std::chrono::seconds(5)));
    // SIGKILL (to the server and its sessions): nothing is removed.
    server.kill();
  }
  std::vector<std::string> left = entries(base + "/assets");
  ASSERT_EQ(left.size(), 1u);
  ASSERT_TRUE(fs::exists(socket));
  // A directory named for a PID that runs something else than
  // executor-server (ctest, this test's parent) is stale too.
  std::string running = "executor-assets-" + std::to_string(getppid()) + "-x";
  fs::create_directories(base + "/assets/" + running);
  // The next server on the same root and socket takes both back.
  LocalExecutor next;
  llvm::Error err = next.start(
      kServer, {"--bind", "unix:" + socket, "--asset-root", base + "/assets"},
      log + ".next");
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err))
                                       << "\n" << readFile(log + ".next");
  EXPECT_FALSE(fs::exists(base + "/assets/" + left.front()))
      << readFile(log + ".next");
  EXPECT_FALSE(fs::exists(base + "/assets/" + running))
      << readFile(log + ".next");
  auto again = ExecutorClient::open("unix:" + socket);
  EXPECT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  if (again)
    again->reset();
  // The new server's own session directory is not taken for a stale one by
  // a third server started beside it.
  auto third = ExecutorClient::open("unix:" + socket);
  ASSERT_TRUE(static_cast<bool>(third)) << llvm::toString(third.takeError());
  ASSERT_FALSE(static_cast<bool>((*third)->sendBinary(kObjectA)));
  ASSERT_TRUE(waitUntil([&] { return entries(base + "/assets").size() == 1; },
                        std::chrono::seconds(5)));
  std::string live = entries(base + "/assets").front();
  LocalExecutor beside;
  ASSERT_FALSE(static_cast<bool>(beside.start(
      kServer, {"--asset-root", base + "/assets"}, log + ".beside")));
  beside.stop();
  EXPECT_TRUE(fs::exists(base + "/assets/" + live));
  third->reset();
  next.stop();
  std::string text = readFile(log + ".next");
  EXPECT_CONTAINS(text, "removed the asset directory " + base + "/assets/" +
                            left.front() + " left by a server that stopped");
}

TEST_F(MalformedRequestTest, ARenamedAssetDirectoryIsStillRemoved) {
  startServer();
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(KERNELS_ASSETS_OBJECT)));
  ASSERT_EQ(entries(base + "/assets").size(), 1u);
  std::string made = entries(base + "/assets").front();
  auto out = client->launch("rename_assets", KERNELS_ASSETS_OBJECT, {}, {});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  // In a mount namespace of its own the directory is a mount point there:
  // the session cannot move it at all.
  if (readFile(log).find("its own user, PID, mount and IPC namespaces") !=
      std::string::npos) {
    EXPECT_FALSE(fs::exists(base + "/assets/" + made + "-moved"));
    ASSERT_FALSE(static_cast<bool>(client->close()));
    EXPECT_TRUE(waitUntil([&] { return entries(base + "/assets").empty(); },
                          std::chrono::seconds(5)));
    return;
  }
  ASSERT_TRUE(fs::exists(base + "/assets/" + made + "-moved"));
  ASSERT_FALSE(static_cast<bool>(client->close()));
  EXPECT_TRUE(waitUntil([&] { return entries(base + "/assets").empty(); },
                        std::chrono::seconds(5)))
      << entries(base + "/assets").front();
  server.stop();
  EXPECT_CONTAINS(readFile(log), "was renamed to " + base + "/assets/" + made +
                                     "-moved; removing it there");
}
