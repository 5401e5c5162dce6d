//===- UnixSocketTest.cpp - executors on this host, over a Unix socket ----===//
//
// executor-server --bind unix:PATH with a real client: kernels run (small
// launches in the socket, large buffers in shared memory), a crash ends
// only its session, stale socket files are replaced and live ones refused,
// and the socket's file mode, not a token, decides who connects.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "TestFiles.h"

#include "llvm/Support/FileSystem.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

using namespace executor_studio::runtime;

using executor_test::readFile;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;

class UnixSocketTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string name =
        ::testing::UnitTest::GetInstance()->current_test_info()->name();
    log = ::testing::TempDir() + "/executor-unix-" + name + ".log";
    // Short: socket paths have a limit of about 100 bytes.
    path = "/tmp/es-test-" + std::to_string(getpid()) + "-" +
           std::to_string(counter++) + ".sock";
    unlink(path.c_str());
  }
  void TearDown() override {
    server.stop();
    unlink(path.c_str());
  }
  static HostMemRef vec(std::vector<double> values) {
    return HostMemRef::of<double>({static_cast<int64_t>(values.size())}, values);
  }
  /// A socket file that nobody listens on: bound, then closed.
  void makeStaleSocket() {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strcpy(addr.sun_path, path.c_str());
    ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
    close(fd);
    struct stat st;
    ASSERT_EQ(lstat(path.c_str(), &st), 0);
    ASSERT_TRUE(S_ISSOCK(st.st_mode));
  }
  LocalExecutor server;
  std::string log, path;
  static inline int counter = 0;
};
} // namespace

TEST_F(UnixSocketTest, KernelsRunAndLargeBuffersGoThroughSharedMemory) {
  server.useUnixSocket(true);
  llvm::Error err = server.start(kServer, {}, log);
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  ASSERT_EQ(server.address().rfind("unix:", 0), 0u) << server.address();
  auto client = ExecutorClient::open(server.address());
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  // Small: in the socket.
  auto out = (*client)->launch("k", kObjectA, {vec({1, 2, 3})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{2, 4, 6}));
  // Large (1 MiB each way): in shared memory, through both launch paths.
  std::vector<double> values(1 << 17);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = double(i);
  auto big = (*client)->launch("k", kObjectA, {vec(values)}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(big)) << llvm::toString(big.takeError());
  std::vector<double> doubled = (*big)[0].as<double>();
  ASSERT_EQ(doubled.size(), values.size());
  EXPECT_EQ(doubled[12345], 2 * 12345.0);
  EXPECT_EQ(doubled.back(), 2 * double(values.size() - 1));
  // A strided input view (every other element) and a result the kernel
  // returns as a strided view, both large.
  int64_t in[5] = {0, 0, 0, int64_t(values.size() / 2), 2};
  reinterpret_cast<double **>(in)[0] = values.data();
  reinterpret_cast<double **>(in)[1] = values.data();
  int64_t outDesc[5] = {};
  llvm::Error launched = (*client)->launchDescriptors(
      "evens", kObjectA, {DescriptorView{in, 1}}, {8},
      {DescriptorView{outDesc, 1}}, {8});
  ASSERT_FALSE(static_cast<bool>(launched)) << llvm::toString(std::move(launched));
  DescriptorView result{outDesc, 1};
  ASSERT_EQ(result.size(0), int64_t(values.size() / 2));
  const double *data = reinterpret_cast<const double *>(result.aligned());
  EXPECT_EQ(data[0], 0.0);
  EXPECT_EQ(data[1000], 2000.0);
  std::free(result.allocated()); // the caller's, as the C ABI says
  // A large input returned as the result (it lives in shared memory on the
  // executor: copied out, never freed there).
  auto same = (*client)->launch("identity", kObjectA, {vec(values)}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(same)) << llvm::toString(same.takeError());
  EXPECT_EQ((*same)[0].as<double>(), values);
  // calloc, realloc and free in a kernel, on blocks in the kernel heap
  // (1 MiB) and in libc's (24 bytes).
  for (size_t n : {values.size(), size_t(3)}) {
    std::vector<double> head(values.begin(), values.begin() + n);
    auto grown = (*client)->launch("grow", kObjectA, {vec(head)}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(grown)) << llvm::toString(grown.takeError());
    std::vector<double> twice = head;
    twice.insert(twice.end(), head.begin(), head.end());
    EXPECT_EQ((*grown)[0].as<double>(), twice);
  }
  EXPECT_FALSE(static_cast<bool>((*client)->close()));
  server.stop();
  std::string text = readFile(log);
  EXPECT_NE(text.find("(unix:" + server.address().substr(5)), std::string::npos)
      << text;
  // Kernels allocated their results in the shared kernel heap.
  EXPECT_EQ(text.find("results are copied"), std::string::npos) << text;
  EXPECT_NE(text.find("launch 1 in, 1 out"), std::string::npos) << text;
}

TEST_F(UnixSocketTest, ACrashEndsOnlyItsSession) {
  server.useUnixSocket(true);
  llvm::Error err = server.start(kServer, {}, log);
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  auto client = ExecutorClient::open(server.address());
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto crashed = (*client)->launch("crash", kObjectA, {}, {});
  ASSERT_FALSE(static_cast<bool>(crashed));
  std::string message = llvm::toString(crashed.takeError());
  EXPECT_NE(message.find("lost the session"), std::string::npos) << message;
  EXPECT_NE(message.find(server.address()), std::string::npos) << message;
  EXPECT_NE(message.find("kernel crash crashed with signal 11"),
            std::string::npos)
      << message;
  client->reset();
  auto again = ExecutorClient::open(server.address());
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  ASSERT_FALSE(static_cast<bool>((*again)->sendBinary(kObjectA)));
  auto out = (*again)->launch("k", kObjectA, {vec({4})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{8});
}

TEST_F(UnixSocketTest, AStaleSocketFileIsReplaced) {
  makeStaleSocket();
  llvm::Error err = server.start(kServer, {"--bind", "unix:" + path}, log);
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  auto client = ExecutorClient::open("unix:" + path);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("k", kObjectA, {vec({5})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{10});
  // Only its owner may connect; the server removes the file when it stops.
  struct stat st;
  ASSERT_EQ(lstat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  client->reset();
  server.stop();
  EXPECT_NE(lstat(path.c_str(), &st), 0) << "the socket file is still there";
}

TEST_F(UnixSocketTest, ALiveSocketAndOtherFilesAreRefused) {
  llvm::Error err = server.start(kServer, {"--bind", "unix:" + path}, log);
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  LocalExecutor second;
  std::string secondLog = log + ".second";
  err = second.start(kServer, {"--bind", "unix:" + path}, secondLog);
  ASSERT_TRUE(static_cast<bool>(err));
  llvm::consumeError(std::move(err));
  std::string text = readFile(secondLog);
  EXPECT_NE(text.find("unix:" + path + " is in use: a server listens on it"),
            std::string::npos)
      << text;
  // The first server still serves.
  auto client = ExecutorClient::open("unix:" + path);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  client->reset();
  server.stop();
  // A file that is not a socket is never removed.
  { std::ofstream(path) << "data"; }
  err = second.start(kServer, {"--bind", "unix:" + path}, secondLog);
  ASSERT_TRUE(static_cast<bool>(err));
  llvm::consumeError(std::move(err));
  text = readFile(secondLog);
  EXPECT_NE(text.find("exists and is not a socket"), std::string::npos) << text;
  EXPECT_EQ(readFile(path), "data");
}

TEST_F(UnixSocketTest, NoTokenOnTheSocketAndTheAddressMapReachesIt) {
  std::string tokenFile = log + ".token";
  // A token executor-server accepts: 16 distinct bytes or more, in a file
  // only its owner reads.
  { std::ofstream(tokenFile) << "sesame-open-up-0123456789\n"; }
  chmod(tokenFile.c_str(), 0600);
  llvm::Error err = server.start(
      kServer, {"--bind", "unix:" + path, "--token-file", tokenFile}, log);
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  // TCP still asks for the token; the socket's file mode guards the socket.
  auto tcp = ExecutorClient::open(server.address());
  ASSERT_FALSE(static_cast<bool>(tcp));
  llvm::consumeError(tcp.takeError());
  setenv("EXECUTOR_ADDRESS_MAP", ("gpu:1=unix:" + path).c_str(), 1);
  auto client = ExecutorClient::open("gpu:1");
  unsetenv("EXECUTOR_ADDRESS_MAP");
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  EXPECT_EQ((*client)->connectedAddress(), "unix:" + path);
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("k", kObjectA, {vec({6})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{12});
}

TEST_F(UnixSocketTest, NobodyListeningIsAClearError) {
  makeStaleSocket();
  auto client = ExecutorClient::open("unix:" + path);
  ASSERT_FALSE(static_cast<bool>(client));
  std::string message = llvm::toString(client.takeError());
  EXPECT_NE(message.find("cannot connect to unix:" + path), std::string::npos)
      << message;
  EXPECT_NE(message.find("is an executor-server listening there?"),
            std::string::npos)
      << message;
}

TEST_F(UnixSocketTest, ThreadsLaunchingLargeAndSmallBuffersAtOnceGetTheirOwnResults) {
  // On a Unix socket one launch at a time uses the shared arenas; the
  // others go through the socket. Over TCP every launch does. Either way
  // each thread gets its own numbers back.
  for (bool overUnix : {true, false}) {
    LocalExecutor executor;
    executor.useUnixSocket(overUnix);
    llvm::Error err = executor.start(kServer, {"--log=sessions"}, log);
    ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
    auto client = ExecutorClient::open(executor.address());
    ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (int i = 0; i < 20; ++i) {
          size_t n = (i % 2) ? 3 : (1 << 15) + t; // 256 KiB or 24 bytes
          std::vector<double> values(n, double(t * 1000 + i));
          auto out = (*client)->launch("k", kObjectA, {vec(values)}, {{1, 8}});
          if (!out) {
            llvm::consumeError(out.takeError());
            ++wrong;
            continue;
          }
          std::vector<double> got = (*out)[0].as<double>();
          if (got.size() != n || got.front() != 2 * values[0] ||
              got.back() != 2 * values[0])
            ++wrong;
        }
      });
    for (std::thread &t : threads)
      t.join();
    EXPECT_EQ(wrong.load(), 0) << (overUnix ? "over a Unix socket" : "over TCP");
  }
}

TEST_F(UnixSocketTest, UnixModeSetsWhoMayConnect) {
  llvm::Error err = server.start(
      kServer, {"--bind", "unix:" + path, "--unix-mode", "0660"}, log);
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  struct stat st;
  ASSERT_EQ(lstat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0660u);
  server.stop();
  // A mode that is not octal is refused before anything listens.
  err = server.start(kServer, {"--bind", "unix:" + path, "--unix-mode", "rw"},
                     log);
  ASSERT_TRUE(static_cast<bool>(err));
  llvm::consumeError(std::move(err));
  EXPECT_NE(readFile(log).find("--unix-mode takes an octal file mode"),
            std::string::npos)
      << readFile(log);
}

TEST_F(UnixSocketTest, WithoutTheKernelHeapLargeResultsComeThroughTheSocket) {
  llvm::Error err = server.start(
      kServer, {"--bind", "unix:" + path, "--no-kernel-heap"}, log);
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  auto client = ExecutorClient::open("unix:" + path);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  std::vector<double> values(1 << 16, 0.5);
  values.back() = 4;
  auto out = (*client)->launch("grow", kObjectA, {vec(values)}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  std::vector<double> got = (*out)[0].as<double>();
  ASSERT_EQ(got.size(), 2 * values.size());
  EXPECT_EQ(got[values.size() - 1], 4.0);
  EXPECT_EQ(got.back(), 4.0);
  EXPECT_EQ(got.front(), 0.5);
}
