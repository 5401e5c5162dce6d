//===- AssetTest.cpp - send_binary format 1 against a real server ---------===//
//
// Assets go into a private directory per session (under --asset-root, here
// a directory of the test's own), where the kernels of assets.o find them
// by the name they were sent under; the directory goes when the session
// does; hostile names and unknown formats are refused with a message.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <thread>

using namespace executor_studio::runtime;
namespace fs = std::filesystem;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kAssets = ASSETS_OBJECT;
const std::string kCrash = KERNELS_A_OBJECT;

std::vector<char> doubles(std::vector<double> values) {
  std::vector<char> bytes(values.size() * sizeof(double));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

class AssetTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string name =
        ::testing::UnitTest::GetInstance()->current_test_info()->name();
    root = fs::path(::testing::TempDir()) / ("assets-" + name);
    fs::remove_all(root);
    fs::create_directories(root / "root");
    log = (root / "server.log").string();
    llvm::Error err =
        server.start(kServer, {"--asset-root", (root / "root").string()}, log);
    ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  }
  void TearDown() override {
    server.stop();
    fs::remove_all(root);
  }
  std::unique_ptr<ExecutorClient> connect() {
    auto client = ExecutorClient::open(server.address());
    EXPECT_TRUE(static_cast<bool>(client))
        << llvm::toString(client.takeError());
    return client ? std::move(*client) : nullptr;
  }
  /// The session directories under the asset root.
  std::vector<fs::path> sessionDirectories() {
    std::vector<fs::path> dirs;
    for (const auto &entry : fs::directory_iterator(root / "root"))
      dirs.push_back(entry.path());
    return dirs;
  }
  /// Waits (up to 5 s) until the asset root is empty.
  bool rootBecomesEmpty() {
    for (int i = 0; i < 500; ++i) {
      if (sessionDirectories().empty())
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  std::vector<double> launchDoubles(ExecutorClient &client,
                                    const std::string &entry) {
    auto out = client.launch(entry, kAssets, {}, {{1, 8}});
    EXPECT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    return out ? (*out)[0].as<double>() : std::vector<double>{};
  }
  std::string errorOf(llvm::Error err) {
    EXPECT_TRUE(static_cast<bool>(err)) << "expected an error";
    return llvm::toString(std::move(err));
  }

  fs::path root;
  std::string log;
  LocalExecutor server;
};
} // namespace

TEST_F(AssetTest, KernelsFindAnAssetByTheNameItWasSentUnder) {
  // Shipped from a host path: stored under its file name.
  fs::path host = root / "host" / "weights.bin";
  fs::create_directories(host.parent_path());
  {
    std::vector<char> bytes = doubles({0.5, 1.5, 2.5});
    std::ofstream(host, std::ios::binary).write(bytes.data(), bytes.size());
  }
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kAssets)));
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(host.string(), 1)));
  // By name, from the session's working directory, and through
  // $EXECUTOR_ASSET_DIR.
  EXPECT_EQ(launchDoubles(*client, "weights_cwd"),
            (std::vector<double>{0.5, 1.5, 2.5}));
  EXPECT_EQ(launchDoubles(*client, "weights_env"),
            (std::vector<double>{0.5, 1.5, 2.5}));
  // One private directory under the root, holding exactly the asset.
  auto dirs = sessionDirectories();
  ASSERT_EQ(dirs.size(), 1u);
  EXPECT_EQ(dirs[0].filename().string().rfind("executor-assets-", 0), 0u);
  EXPECT_EQ(fs::status(dirs[0]).permissions() & fs::perms::all,
            fs::perms::owner_all);
  std::vector<std::string> files;
  for (const auto &entry : fs::directory_iterator(dirs[0]))
    files.push_back(entry.path().filename().string());
  EXPECT_EQ(files, std::vector<std::string>{"weights.bin"});
  // The executor.call side sees the same directory.
  auto reply = client->call("asset_dir_length", {});
  ASSERT_TRUE(static_cast<bool>(reply)) << llvm::toString(reply.takeError());
  int64_t length = 0;
  ASSERT_EQ(reply->size(), sizeof(length));
  std::memcpy(&length, reply->data(), sizeof(length));
  EXPECT_EQ(length, static_cast<int64_t>(dirs[0].string().size()));

  // Sent again under the same name: replaced, never half-written.
  std::vector<char> newer = doubles({7, 8});
  ASSERT_FALSE(static_cast<bool>(client->storeAsset("weights.bin", newer)));
  EXPECT_EQ(launchDoubles(*client, "weights_cwd"), (std::vector<double>{7, 8}));

  // Gone with the session.
  ASSERT_FALSE(static_cast<bool>(client->close()));
  EXPECT_TRUE(rootBecomesEmpty());
  server.stop();
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("asset stored: weights.bin (24 bytes)"),
            std::string::npos)
      << text;
}

TEST_F(AssetTest, EachSessionHasItsOwnDirectory) {
  auto a = connect();
  auto b = connect();
  ASSERT_TRUE(a && b);
  for (auto *client : {a.get(), b.get()})
    ASSERT_FALSE(static_cast<bool>(client->sendBinary(kAssets)));
  ASSERT_FALSE(static_cast<bool>(a->storeAsset("weights.bin", doubles({1}))));
  ASSERT_FALSE(
      static_cast<bool>(b->storeAsset("weights.bin", doubles({2, 2}))));
  EXPECT_EQ(launchDoubles(*a, "weights_cwd"), std::vector<double>{1});
  EXPECT_EQ(launchDoubles(*b, "weights_cwd"), (std::vector<double>{2, 2}));
  EXPECT_EQ(sessionDirectories().size(), 2u);
  a.reset();
  b.reset();
  EXPECT_TRUE(rootBecomesEmpty());
}

TEST_F(AssetTest, TheDirectoryGoesEvenWhenAKernelCrashes) {
  auto client = connect();
  ASSERT_TRUE(client);
  ASSERT_FALSE(static_cast<bool>(client->sendBinary(kCrash)));
  ASSERT_FALSE(static_cast<bool>(client->storeAsset("data.txt", doubles({1}))));
  EXPECT_EQ(sessionDirectories().size(), 1u);
  auto crashed = client->launch("crash", kCrash, {}, {});
  ASSERT_FALSE(static_cast<bool>(crashed));
  llvm::consumeError(crashed.takeError());
  EXPECT_TRUE(rootBecomesEmpty());
}

TEST_F(AssetTest, HostileNamesAreRefusedAndNothingIsWrittenOutside) {
  auto client = connect();
  ASSERT_TRUE(client);
  std::vector<char> bytes = doubles({1});
  struct Case {
    std::string name, reason;
  };
  std::vector<Case> cases = {
      {"../escape", "contains '/'"},
      {"..", "'..' is not a file name"},
      {".", "'.' is not a file name"},
      {"", "the name is empty"},
      {"sub/file", "contains '/'"},
      {"/etc/passwd", "contains '/'"},
      {std::string("nul\0byte", 8), "contains a NUL byte"},
      {std::string(256, 'x'), "256 bytes long (at most 255)"},
  };
  for (const Case &c : cases) {
    std::string message = errorOf(client->storeAsset(c.name, bytes));
    EXPECT_NE(message.find("refused asset name"), std::string::npos) << message;
    EXPECT_NE(message.find(c.reason), std::string::npos) << message;
  }
  // The same through the (name, bytes) form of send_binary.
  std::string dots = errorOf(client->sendBinary("..", bytes, 1));
  EXPECT_NE(dots.find("'..' is not a file name"), std::string::npos) << dots;
  // A link planted in the directory under an asset's name is replaced, not
  // written through.
  fs::path outside = root / "outside.txt";
  std::ofstream(outside) << "untouched";
  fs::create_symlink(outside, sessionDirectories()[0] / "planted.bin");
  ASSERT_FALSE(static_cast<bool>(client->storeAsset("planted.bin", bytes)));
  EXPECT_FALSE(fs::is_symlink(sessionDirectories()[0] / "planted.bin"));
  EXPECT_EQ(fs::file_size(sessionDirectories()[0] / "planted.bin"), 8u);
  std::ifstream in(outside);
  std::string kept((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(kept, "untouched");
  fs::remove(sessionDirectories()[0] / "planted.bin");
  // The longest name is fine; the session still works.
  ASSERT_FALSE(
      static_cast<bool>(client->storeAsset(std::string(255, 'y'), bytes)));
  // Nothing but the session directory under the root, nothing beside it.
  auto dirs = sessionDirectories();
  ASSERT_EQ(dirs.size(), 1u);
  EXPECT_FALSE(fs::exists(root / "escape"));
  EXPECT_FALSE(fs::exists(root / "root" / "escape"));
  size_t files = 0;
  for (const auto &entry : fs::directory_iterator(dirs[0])) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1u);
}

TEST_F(AssetTest, UnknownFormatsAreErrors) {
  auto client = connect();
  ASSERT_TRUE(client);
  std::string message = errorOf(client->sendBinary(kAssets, 2));
  EXPECT_NE(message.find("unknown binary format 2 (0 is a relocatable object, "
                         "1 an asset)"),
            std::string::npos)
      << message;
  std::vector<char> bytes = doubles({1});
  message = errorOf(client->sendBinary("x.bin", bytes, 7));
  EXPECT_NE(message.find("unknown binary format 7"), std::string::npos)
      << message;
  EXPECT_TRUE(sessionDirectories().size() == 1u &&
              fs::is_empty(sessionDirectories()[0]));
}

TEST_F(AssetTest, AnUnreadableHostFileIsAnError) {
  auto client = connect();
  ASSERT_TRUE(client);
  std::string message =
      errorOf(client->sendBinary((root / "missing.bin").string(), 1));
  EXPECT_NE(message.find("cannot read asset"), std::string::npos) << message;
  EXPECT_NE(message.find("missing.bin"), std::string::npos) << message;
}
