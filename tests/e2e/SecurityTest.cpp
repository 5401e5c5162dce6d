//===- SecurityTest.cpp - executor-server attacked, against a real server -===//
//
// One test per finding of issue 11 (an executor that is safe to expose):
// TLS and what a client hears when the two ends disagree about it, tokens,
// the limits, least privilege, stopping, and the log. Every test starts a
// real executor-server on a free loopback port; attacks use raw sockets.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/TlsStream.h"
#include "ExecutorRuntime/UnixSocket.h"
#include "RunTool.h"
#include "SanitizerSlowdown.h"
#include "TestFiles.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <functional>
#include <mutex>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <grp.h>
#include <sys/wait.h>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace executor_studio::runtime;
using Clock = std::chrono::steady_clock;

using executor_test::readFile;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;
const std::string kToken = "0123456789abcdef-a-test-token";

/// This process's: ctest runs each test in a process of its own, several at
/// once, and each makes its own certificates (one shared directory would
/// have a server load one CA's certificate while its client trusts the
/// next).
std::string tempDir() {
  return ::testing::TempDir() + "/executor-security-" +
         std::to_string(getpid());
}

/// A process that has exited (gone, or a zombie nobody reaped yet).
bool gone(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text))
    return true;
  size_t close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() &&
         text[close + 2] == 'Z';
}

bool waitUntil(std::function<bool()> done, std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  while (Clock::now() < deadline) {
    if (done())
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

/// A raw TCP connection to `address`.
int rawConnect(const std::string &address) {
  std::string error;
  return connectTo(address, std::chrono::seconds(2), error);
}

/// Reads until the peer closes (true) or `limit` passes (false).
bool closedWithin(int fd, std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  char buffer[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0)
      return false;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0)
      return false;
    ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0)
      return true;
  }
}

#define EXPECT_CONTAINS(text, part)                                            \
  EXPECT_NE(std::string(text).find(part), std::string::npos)                   \
      << "'" << (part) << "' not in:\n"                                        \
      << (text)

class SecurityTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::sys::fs::create_directories(tempDir());
    chmod(tempDir().c_str(), 0755);
    std::string certs = tempDir() + "/certs";
    std::string other = tempDir() + "/other-ca";
    ASSERT_TRUE(executor_test::makeExecutorCerts(certs, {"127.0.0.1", "executor.test"}));
    ASSERT_TRUE(executor_test::makeExecutorCerts(other, {"127.0.0.1"}));
    std::ofstream(tempDir() + "/token") << kToken << "\n";
    chmod((tempDir() + "/token").c_str(), 0600);
  }
  static void TearDownTestSuite() {
    llvm::sys::fs::remove_directories(tempDir());
  }
  void SetUp() override {
    log = tempDir() + "/" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name() +
          ".log";
  }
  void TearDown() override {
    server.stop();
    if (!assetRoot.empty())
      llvm::sys::fs::remove_directories(assetRoot);
  }
  static std::string ca() { return tempDir() + "/certs/ca.pem"; }
  static std::string tokenFile() { return tempDir() + "/token"; }
  static std::vector<std::string> tlsArgs() {
    return {"--tls-cert", tempDir() + "/certs/server.pem", "--tls-key",
            tempDir() + "/certs/server.key"};
  }
  void startServer(std::vector<std::string> args = {},
                   const std::string &path = kServer) {
    assetRoot = log + ".assets";
    llvm::sys::fs::create_directories(assetRoot);
    chmod(assetRoot.c_str(), 01777);
    args.push_back("--asset-root");
    args.push_back(assetRoot);
    llvm::Error err = server.start(path, args, log);
    ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err))
                                         << "\n" << readFile(log);
  }
  /// The error message of a server that must refuse to start with `args`.
  std::string startupError(std::vector<std::string> args) {
    LocalExecutor refused;
    llvm::Error err = refused.start(kServer, args, log);
    EXPECT_TRUE(static_cast<bool>(err)) << "the server started";
    llvm::consumeError(std::move(err));
    return readFile(log);
  }
  llvm::Expected<std::unique_ptr<ExecutorClient>>
  open(ClientOptions options = {}) {
    return ExecutorClient::open(server.address(), options);
  }
  static ClientOptions secure() {
    ClientOptions options;
    options.tlsCA = ca();
    options.token = kToken;
    return options;
  }
  /// Starts the server with `args` on `wire` ("tcp", "tls" or "unix"); the
  /// options a client needs there.
  ClientOptions startServerOver(const std::string &wire,
                                std::vector<std::string> args) {
    ClientOptions options;
    if (wire == "tls") {
      std::vector<std::string> tls = tlsArgs();
      args.insert(args.end(), tls.begin(), tls.end());
      options.tlsCA = ca();
    }
    server.useUnixSocket(wire == "unix");
    startServer(args);
    return options;
  }
  /// "" when this process may open `files` descriptors (raising its soft
  /// limit if need be), else why not, for GTEST_SKIP.
  static std::string tooFewFiles(rlim_t files) {
    rlimit limit{};
    getrlimit(RLIMIT_NOFILE, &limit);
    if (limit.rlim_cur < files) {
      limit.rlim_cur = std::min<rlim_t>(limit.rlim_max, 4096);
      setrlimit(RLIMIT_NOFILE, &limit);
    }
    if (limit.rlim_cur >= files)
      return "";
    return "this process may open only " + std::to_string(limit.rlim_cur) +
           " files";
  }
  /// A client with `options` opens a session within 2 s (whatever else
  /// holds the listener) and runs a kernel in it; with `onlySession`, no
  /// other session runs meanwhile.
  void expectServedPromptly(const ClientOptions &options,
                            bool onlySession = true) {
    auto start = Clock::now();
    auto client = open(options);
    ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    EXPECT_LT(Clock::now() - start,
              std::chrono::seconds(2) * executor_test::kSanitizerSlowdown);
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    auto out = (*client)->launch("square", kObjectA, {vec({3})}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{9});
    // Its PID, though a Setup the listener sent left before the session
    // existed.
    EXPECT_GT((*client)->sessionPid(), 0);
    if (onlySession)
      EXPECT_EQ(server.sessionProcesses().size(), 1u);
    client->reset();
  }
  /// Launches `spin` (a kernel that never returns) in a new session with
  /// `options`: the launch fails within `within`, saying `words`, and the
  /// session and its kernel end within `ended`.
  void expectSpinStopped(const ClientOptions &options, const std::string &words,
                         std::chrono::seconds within,
                         std::chrono::seconds ended) {
    auto client = open(options);
    ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    auto start = Clock::now();
    auto out = (*client)->launch("spin", kObjectA, {}, {});
    ASSERT_FALSE(static_cast<bool>(out));
    EXPECT_CONTAINS(llvm::toString(out.takeError()), words);
    EXPECT_LT(Clock::now() - start, within);
    EXPECT_TRUE(waitUntil([&] { return server.sessionProcesses().empty(); },
                          ended));
  }
  static HostMemRef vec(std::vector<double> values) {
    return HostMemRef::of<double>({static_cast<int64_t>(values.size())},
                                  values);
  }
  LocalExecutor server;
  std::string log, assetRoot;
};

/// A TCP relay between a client and `target` that records what the client
/// sends: what an eavesdropper on the link sees.
class Eavesdropper {
public:
  explicit Eavesdropper(const std::string &target) {
    listener = bindLoopback(true, address);
    relay = std::thread([this, target] {
      int client = accept(listener, nullptr, nullptr);
      std::string error;
      int server = connectTo(target, std::chrono::seconds(2), error);
      if (client < 0 || server < 0)
        return;
      pollfd p[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
      char buffer[65536];
      while (!stop && poll(p, 2, 100) >= 0) {
        for (int i = 0; i < 2; ++i) {
          if (!(p[i].revents & (POLLIN | POLLHUP)))
            continue;
          ssize_t n = recv(p[i].fd, buffer, sizeof(buffer), 0);
          if (n <= 0)
            goto done;
          if (i == 0) {
            std::lock_guard<std::mutex> lock(mutex);
            seen.append(buffer, static_cast<size_t>(n));
          }
          writeAll(p[1 - i].fd, buffer, static_cast<size_t>(n));
        }
      }
    done:
      close(client);
      close(server);
    });
  }
  ~Eavesdropper() {
    stop = true;
    relay.join();
    close(listener);
  }
  std::string sent() {
    std::lock_guard<std::mutex> lock(mutex);
    return seen;
  }
  std::string address;

private:
  int listener = -1;
  std::thread relay;
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::string seen;
};
} // namespace

//===----------------------------------------------------------------------===//
// 1. TLS
//===----------------------------------------------------------------------===//

TEST_F(SecurityTest, TlsCarriesTheTokenAndTheLaunchesOutOfSight) {
  std::vector<std::string> args = tlsArgs();
  args.insert(args.end(), {"--token-file", tokenFile()});
  startServer(args);
  Eavesdropper link(server.address());
  auto client = ExecutorClient::open(link.address, secure());
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("square", kObjectA, {vec({3, 4})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{9, 16}));
  client->reset();
  std::string wire = link.sent();
  EXPECT_GT(wire.size(), 1000u);
  EXPECT_EQ(wire.find(kToken), std::string::npos) << "the token in clear";
  EXPECT_EQ(wire.find("square"), std::string::npos) << "a kernel in clear";
  EXPECT_EQ(wire.find("_catalyst_pyface"), std::string::npos);
  server.stop();
  EXPECT_CONTAINS(readFile(log), "opened (TLS)");
}

TEST_F(SecurityTest, AKernelCrashOverTlsIsReportedWithItsSignal) {
  // The crash report is sealed into a TLS record by the session's crash
  // reporter thread (the signal handler only hands it over: OpenSSL is not
  // async-signal-safe): the client reads it as it does over plaintext.
  std::vector<std::string> args = tlsArgs();
  args.insert(args.end(), {"--token-file", tokenFile()});
  startServer(args);
  auto client = ExecutorClient::open(server.address(), secure());
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto crashed = (*client)->launch("crash", kObjectA, {}, {});
  ASSERT_FALSE(static_cast<bool>(crashed));
  std::string message = llvm::toString(crashed.takeError());
  EXPECT_CONTAINS(message, "lost the session during launch of crash");
  EXPECT_CONTAINS(message, "crashed with signal 11");
  // The next session over TLS works.
  auto next = ExecutorClient::open(server.address(), secure());
  ASSERT_TRUE(static_cast<bool>(next)) << llvm::toString(next.takeError());
  ASSERT_FALSE(static_cast<bool>((*next)->sendBinary(kObjectA)));
  auto out = (*next)->launch("square", kObjectA, {vec({5})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{25}));
}

TEST_F(SecurityTest, PlaintextClientAgainstTlsServerFailsAtOnce) {
  startServer(tlsArgs());
  auto start = Clock::now();
  auto client = open();
  ASSERT_FALSE(static_cast<bool>(client));
  EXPECT_CONTAINS(llvm::toString(client.takeError()),
                  "requires TLS (it was started with --tls-cert): set "
                  "EXECUTOR_TLS_CA");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(1));
}

TEST_F(SecurityTest, TlsClientAgainstPlaintextServerFailsAtOnce) {
  for (bool withToken : {false, true}) {
    startServer(withToken ? std::vector<std::string>{"--token-file",
                                                     tokenFile()}
                          : std::vector<std::string>{});
    auto start = Clock::now();
    auto client = open(secure());
    ASSERT_FALSE(static_cast<bool>(client));
    EXPECT_CONTAINS(llvm::toString(client.takeError()),
                    "does not speak TLS (it began a plaintext session)");
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(1));
    server.stop();
  }
}

TEST_F(SecurityTest, TheServerMustProveItsName) {
  startServer(tlsArgs());
  // Signed by a CA the client does not trust.
  ClientOptions stranger;
  stranger.tlsCA = tempDir() + "/other-ca/ca.pem";
  auto untrusted = open(stranger);
  ASSERT_FALSE(static_cast<bool>(untrusted));
  EXPECT_CONTAINS(llvm::toString(untrusted.takeError()),
                  "TLS handshake failed");
  // Trusted, but the certificate does not name the host connected to.
  std::string port = server.address().substr(server.address().rfind(':'));
  ClientOptions options;
  options.tlsCA = ca();
  auto wrongName = ExecutorClient::open("localhost" + port, options);
  ASSERT_FALSE(static_cast<bool>(wrongName));
  std::string message = llvm::toString(wrongName.takeError());
  EXPECT_CONTAINS(message, "TLS handshake failed");
  EXPECT_CONTAINS(message, "mismatch");
  // The name it does carry.
  auto right = open(options);
  EXPECT_TRUE(static_cast<bool>(right)) << llvm::toString(right.takeError());
}

TEST_F(SecurityTest, RemoteNeedsTlsAndATokenUnlessSaidOtherwise) {
  std::string text = startupError(
      {"--bind", "0.0.0.0:0", "--allow-remote", "--token-file", tokenFile()});
  EXPECT_CONTAINS(text, "--allow-remote needs --tls-cert, --tls-key and "
                        "--token-file");
  std::vector<std::string> args = tlsArgs();
  args.insert(args.end(), {"--bind", "0.0.0.0:0", "--allow-remote"});
  EXPECT_CONTAINS(startupError(args), "--insecure-plaintext");
  LocalExecutor insecure;
  llvm::Error err = insecure.start(
      kServer, {"--bind", "0.0.0.0:0", "--allow-remote", "--insecure-plaintext"},
      log);
  EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
}

//===----------------------------------------------------------------------===//
// 2. Limits
//===----------------------------------------------------------------------===//

TEST_F(SecurityTest, SilentAndHalfHeaderConnectionsAreClosed) {
  // Plaintext, TLS, a token: each waits for something else.
  std::vector<std::pair<std::vector<std::string>, std::string>> servers = {
      {{"--no-token"}, "ended: no session started within 0.5 s of "
                       "connecting (--handshake-timeout)"},
      {tlsArgs(), "it did not authenticate within 0.5 s of connecting "
                  "(--auth-timeout)"},
      {{"--token-file", tokenFile()},
       "it did not authenticate within 0.5 s of connecting "
       "(--auth-timeout)"}};
  for (auto [args, logged] : servers) {
    args.insert(args.end(), {"--handshake-timeout", "500ms"});
    startServer(args);
    int silent = rawConnect(server.address());
    int half = rawConnect(server.address());
    ASSERT_GE(silent, 0);
    ASSERT_GE(half, 0);
    char header[16] = {32};
    writeAll(half, header, sizeof(header));
    EXPECT_TRUE(closedWithin(silent, std::chrono::seconds(3)));
    EXPECT_TRUE(closedWithin(half, std::chrono::seconds(3)));
    close(silent);
    close(half);
    EXPECT_TRUE(waitUntil([&] { return server.sessionProcesses().empty(); },
                          std::chrono::seconds(2)));
    server.stop();
    EXPECT_CONTAINS(readFile(log), logged);
  }
}

TEST_F(SecurityTest, SessionsBeyondTheMaximumAreRefusedWithAReply) {
  startServer({"--max-sessions", "2"});
  auto a = open(), b = open();
  ASSERT_TRUE(a && b);
  auto start = Clock::now();
  auto c = open();
  ASSERT_FALSE(static_cast<bool>(c));
  EXPECT_CONTAINS(llvm::toString(c.takeError()),
                  "refused the session: busy: this executor serves its "
                  "maximum of 2 sessions (--max-sessions)");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(1));
  a->reset();
  EXPECT_TRUE(waitUntil([&] { return server.sessionProcesses().size() == 1; },
                        std::chrono::seconds(2)));
  auto d = open();
  EXPECT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
}

TEST_F(SecurityTest, AnOversizedHeaderEndsTheSessionWithALogLine) {
  startServer({"--max-message-size", "64M", "--no-token"});
  for (uint64_t claimed : {uint64_t(1) << 60, uint64_t(16) << 30}) {
    int fd = rawConnect(server.address());
    ASSERT_GE(fd, 0);
    char header[32] = {};
    std::memcpy(header, &claimed, sizeof(claimed));
    header[8] = 3; // CallWrapper
    writeAll(fd, header, sizeof(header));
    EXPECT_TRUE(closedWithin(fd, std::chrono::seconds(3)));
    close(fd);
  }
  // The session logs after it has closed the connection.
  EXPECT_TRUE(waitUntil([&] { return server.sessionProcesses().empty(); },
                        std::chrono::seconds(2)));
  server.stop();
  std::string text = readFile(log);
  EXPECT_CONTAINS(text, "a message of 1152921504606846976 bytes is larger "
                        "than the limit of 67108864 bytes "
                        "(executor-server --max-message-size)");
  EXPECT_CONTAINS(text, "a message of 17179869184 bytes is larger");
  EXPECT_EQ(text.find("by signal"), std::string::npos) << text;
}

TEST_F(SecurityTest, SessionMemoryIsLimited) {
  startServer({"--max-session-memory", "512M"});
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto small = (*client)->launch("hog", kObjectA, {vec({64 << 20})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(small)) << llvm::toString(small.takeError());
  EXPECT_EQ((*small)[0].as<double>(), std::vector<double>{1});
  auto big = (*client)->launch("hog", kObjectA, {vec({double(1ull << 30)})},
                               {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(big)) << llvm::toString(big.takeError());
  EXPECT_EQ((*big)[0].as<double>(), std::vector<double>{0})
      << "a 1 GiB allocation succeeded under a 512 MiB limit";
}

TEST_F(SecurityTest, AKernelOverTheServersLaunchTimeIsStopped) {
  startServer({"--max-launch-time", "1"});
  expectSpinStopped({},
                    "kernel spin ran longer than the launch time limit of 1 s "
                    "(executor-server --max-launch-time) and was stopped",
                    std::chrono::seconds(4), std::chrono::seconds(2));
}

TEST_F(SecurityTest, AClientsLaunchTimeLimitFailsTheLaunchAndStopsTheKernel) {
  startServer();
  ClientOptions options;
  options.launchTimeout = std::chrono::milliseconds(500);
  // The client went: the session and its spinning kernel end.
  expectSpinStopped(options,
                    "did not finish within 500 ms (the launch time limit, "
                    "EXECUTOR_LAUNCH_TIMEOUT)",
                    std::chrono::seconds(2), std::chrono::seconds(3));
  server.stop();
  EXPECT_CONTAINS(readFile(log),
                  "the client has gone while kernel spin still runs");
}

// Launches go as the transport's direct calls (StreamTransport.h), over TCP,
// TLS and Unix sockets alike: the limits hold there too.
TEST_F(SecurityTest, TheMessageSizeLimitHoldsForLaunchesOverTcpTlsAndUnix) {
  for (const char *wire : {"tcp", "tls", "unix"}) {
    SCOPED_TRACE(wire);
    std::vector<std::string> args = {"--max-message-size", "1M"};
    ClientOptions options = startServerOver(wire, args);
    auto client = open(options);
    ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    // 256 KiB in and out pass; 2 MiB in (through shared memory on a Unix
    // socket) is over the limit and ends the session.
    std::vector<double> quarter(32768, 2.0), twoMiB(262144, 2.0);
    auto fits = (*client)->launch("k", kObjectA, {vec(quarter)}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(fits)) << llvm::toString(fits.takeError());
    EXPECT_EQ((*fits)[0].as<double>()[32767], 4.0);
    auto over = (*client)->launch("k", kObjectA, {vec(twoMiB)}, {{1, 8}});
    ASSERT_FALSE(static_cast<bool>(over));
    EXPECT_CONTAINS(llvm::toString(over.takeError()), "lost the session");
    EXPECT_TRUE(waitUntil([&] { return server.sessionProcesses().empty(); },
                          std::chrono::seconds(3)));
    server.stop();
    std::string text = readFile(log);
    EXPECT_CONTAINS(text, "larger than the ");
    EXPECT_CONTAINS(text, "limit of 1048576 bytes (executor-server "
                          "--max-message-size)");
    EXPECT_EQ(text.find("by signal"), std::string::npos) << text;
  }
}

TEST_F(SecurityTest, TimeLimitsHoldOverTlsAndUnixSockets) {
  for (const char *wire : {"tls", "unix"}) {
    SCOPED_TRACE(wire);
    // 0.5 s to authenticate and start a session (longer under a sanitizer,
    // whose TLS handshake alone can take that).
    int handshakeMs = 500 * executor_test::kSanitizerSlowdown;
    std::string handshake = std::to_string(handshakeMs) + "ms";
    char shown[32];
    std::snprintf(shown, sizeof(shown), "%g s", handshakeMs / 1000.0);
    std::vector<std::string> args = {"--max-launch-time", "1",
                                     "--handshake-timeout", handshake,
                                     "--auth-timeout", handshake};
    auto closeBound = std::chrono::milliseconds(handshakeMs + 2500);
    ClientOptions options = startServerOver(wire, args);
    // The client's limit: the launch fails, the session ends.
    options.launchTimeout = std::chrono::milliseconds(300);
    expectSpinStopped(options,
                      "did not finish within 300 ms (the launch time limit, "
                      "EXECUTOR_LAUNCH_TIMEOUT)",
                      std::chrono::seconds(2), std::chrono::seconds(3));
    // The server's limit stops a kernel whose client waits.
    options.launchTimeout = std::chrono::milliseconds(0);
    expectSpinStopped(options,
                      "kernel spin ran longer than the launch time limit of 1 s",
                      std::chrono::seconds(4), std::chrono::seconds(3));
    // A connection that never starts a session is closed.
    if (wire == std::string("unix")) {
      std::string path = server.address().substr(5);
      int silent = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_un addr{};
      addr.sun_family = AF_UNIX;
      std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
      ASSERT_EQ(connect(silent, reinterpret_cast<sockaddr *>(&addr),
                        sizeof(addr)),
                0);
      EXPECT_TRUE(closedWithin(silent, closeBound));
      close(silent);
    } else {
      int silent = rawConnect(server.address());
      EXPECT_TRUE(closedWithin(silent, closeBound));
      close(silent);
    }
    server.stop();
    EXPECT_CONTAINS(readFile(log),
                    (wire == std::string("unix")
                         ? "ended: no session started within "
                         : "it did not authenticate within ") +
                        std::string(shown) + " of connecting");
  }
}

TEST_F(SecurityTest, AUnixSocketNeedsNeitherTlsNorTokenWhereTcpNeedsBoth) {
  std::vector<std::string> args = tlsArgs();
  args.insert(args.end(), {"--token-file", tokenFile()});
  server.useUnixSocket(true);
  startServer(args);
  // Even a client that asks for TLS and has a token talks plainly on the
  // socket (its file mode is the access control).
  auto client = open(secure());
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("square", kObjectA, {vec({3, 4})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{9, 16}));
  client->reset();
  server.stop();
  EXPECT_CONTAINS(readFile(log), "opened\n");
  // On TCP, the same server asks for both.
  server.useUnixSocket(false);
  startServer(args);
  auto plain = open();
  ASSERT_FALSE(static_cast<bool>(plain));
  EXPECT_CONTAINS(llvm::toString(plain.takeError()), "requires TLS");
  ClientOptions noToken;
  noToken.tlsCA = ca();
  auto anonymous = open(noToken);
  ASSERT_FALSE(static_cast<bool>(anonymous));
  EXPECT_CONTAINS(llvm::toString(anonymous.takeError()),
                  "wrong or missing token");
  auto good = open(secure());
  EXPECT_TRUE(static_cast<bool>(good)) << llvm::toString(good.takeError());
}

TEST_F(SecurityTest, AClientThatGoesTakesItsKernelWithIt) {
  startServer();
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client));
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto ticket = (*client)->launchAsync("spin", kObjectA);
  ASSERT_TRUE(static_cast<bool>(ticket));
  std::vector<pid_t> sessions = server.sessionProcesses();
  ASSERT_EQ(sessions.size(), 1u);
  client->reset();
  EXPECT_TRUE(waitUntil([&] { return gone(sessions[0]); },
                        std::chrono::seconds(3)));
}

namespace {
/// A script that runs executor-server as an unused user (uid 4242) with
/// RLIMIT_NPROC `n`: that user may have `n` processes and threads.
/// A script that starts a copy of executor-server as uid 4242 under an
/// nproc limit of `n`. The copy sits in a folder of its own that uid 4242
/// can reach: the build tree may be in a private (0700) folder.
std::string nprocWrapper(int n, std::string &dir) {
  char pattern[] = "/tmp/executor-nproc-XXXXXX";
  dir = mkdtemp(pattern) ? pattern : "";
  std::string server = dir + "/executor-server";
  if (dir.empty() || llvm::sys::fs::copy_file(kServer, server))
    return "";
  chmod(dir.c_str(), 0755);
  chmod(server.c_str(), 0755);
  std::string path = dir + "/nproc-" + std::to_string(n) + ".sh";
  std::ofstream(path) << "#!/bin/sh\nexec setpriv --reuid=4242 --regid=4242 "
                         "--clear-groups prlimit --nproc="
                      << n << " " << server << " \"$@\"\n";
  chmod(path.c_str(), 0755);
  return path;
}
} // namespace

/// How many processes `uid` has (threads not counted).
size_t processesOf(uid_t uid) {
  size_t count = 0;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    struct stat info{};
    std::string name = it->path().filename().string();
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) &&
        stat(it->path().c_str(), &info) == 0 && info.st_uid == uid)
      ++count;
  }
  return count;
}

TEST_F(SecurityTest, NoProcessOrThreadToSpareIsARefusalNotAnAbort) {
  if (geteuid() != 0)
    GTEST_SKIP() << "needs root (to run the server as another user)";
  // A session is a keeper and, in a PID namespace of its own, the session
  // process (where this machine gives namespaces): with 2, the keeper's
  // fork fails; with 3, the session's first thread.
  for (int n : {1, 2, 3}) {
    // The limit counts every process of the user: the last server's must
    // have gone (on a loaded machine they can take a moment).
    ASSERT_TRUE(waitUntil([] { return processesOf(4242) == 0; },
                          std::chrono::seconds(10)))
        << processesOf(4242) << " processes of uid 4242 are left";
    std::string dir;
    std::string wrapper = nprocWrapper(n, dir);
    ASSERT_FALSE(wrapper.empty()) << "cannot copy executor-server to " << dir;
    auto removeDir =
        llvm::scope_exit([&] { llvm::sys::fs::remove_directories(dir); });
    startServer({"--no-token"}, wrapper);
    auto client = open();
    ASSERT_FALSE(static_cast<bool>(client));
    std::string refusal = llvm::toString(client.takeError());
    EXPECT_CONTAINS(refusal, "refused the session: cannot start a session: ");
    server.stop();
    std::string text = readFile(log);
    SCOPED_TRACE("nproc " + std::to_string(n) + "; the client heard: " +
                 refusal);
    bool keeper = text.find("its own user, PID, mount and IPC namespaces") !=
                  std::string::npos;
    if (n == 1 || (n == 2 && keeper))
      EXPECT_CONTAINS(text, "cannot start a session: fork: Resource "
                            "temporarily unavailable");
    else
      EXPECT_CONTAINS(text, "cannot start a session: cannot start a "
                            "thread: Resource temporarily unavailable");
    EXPECT_EQ(text.find("by signal"), std::string::npos) << text;
  }
}

//===----------------------------------------------------------------------===//
// 3. Authentication
//===----------------------------------------------------------------------===//

TEST_F(SecurityTest, WeakTokensAndReadableTokenFilesAreRefusedAtStart) {
  std::string shortFile = tempDir() + "/short-token";
  std::ofstream(shortFile) << "x\n";
  chmod(shortFile.c_str(), 0600);
  EXPECT_CONTAINS(startupError({"--token-file", shortFile}),
                  "is 1 bytes long; use at least 16");
  std::string readable = tempDir() + "/readable-token";
  std::ofstream(readable) << kToken << "\n";
  chmod(readable.c_str(), 0644);
  EXPECT_CONTAINS(startupError({"--token-file", readable}),
                  "is readable by its group or others (mode 0644)");
  // Issue 22: a 16-byte token of one letter was accepted.
  std::string repeated = tempDir() + "/repeated-token";
  std::ofstream(repeated) << "aaaaaaaaaaaaaaaaaaaaaaaa\n";
  chmod(repeated.c_str(), 0600);
  EXPECT_CONTAINS(startupError({"--token-file", repeated}),
                  "is one character repeated");
  std::string few = tempDir() + "/few-distinct-token";
  std::ofstream(few) << "abcabcabcabcabcabcab\n";
  chmod(few.c_str(), 0600);
  EXPECT_CONTAINS(startupError({"--token-file", few}),
                  "has only 3 distinct bytes in 20");
  // The client refuses to use one, before it connects.
  startServer({"--token-file", tokenFile()});
  ClientOptions weak;
  weak.token = "zzzzzzzzzzzzzzzzzzzzzzzzzzzz";
  auto client = open(weak);
  ASSERT_FALSE(static_cast<bool>(client));
  EXPECT_CONTAINS(llvm::toString(client.takeError()),
                  "the token (EXECUTOR_TOKEN, EXECUTOR_TOKEN_FILE or the "
                  "client's options) is one character repeated");
}

TEST_F(SecurityTest, ASettingThatCannotBeUsedIsTheErrorItself) {
  // Issue 26, item 1: a token file that is not there was reported as the
  // server's "wrong or missing token (... set EXECUTOR_TOKEN or
  // EXECUTOR_TOKEN_FILE)", with the variable set. Each setting of the
  // environment the client reads says what is wrong with it.
  std::vector<std::string> args = tlsArgs();
  args.insert(args.end(), {"--token-file", tokenFile()});
  startServer(args);
  ClientOptions options;
  options.tlsCA = ca();
  unsetenv("EXECUTOR_TOKEN");
  llvm::scope_exit unset([] {
    unsetenv("EXECUTOR_TOKEN_FILE");
    unsetenv("EXECUTOR_LAUNCH_TIMEOUT");
    unsetenv("EXECUTOR_LIVENESS_TIMEOUT");
    unsetenv("EXECUTOR_TLS_CA");
  });
  std::string missing = tempDir() + "/no-such-token";
  setenv("EXECUTOR_TOKEN_FILE", missing.c_str(), 1);
  auto noFile = open(options);
  ASSERT_FALSE(static_cast<bool>(noFile));
  EXPECT_CONTAINS(llvm::toString(noFile.takeError()),
                  "cannot read EXECUTOR_TOKEN_FILE " + missing +
                      ": No such file or directory");
  std::string empty = tempDir() + "/empty-token";
  std::ofstream(empty) << "\n";
  setenv("EXECUTOR_TOKEN_FILE", empty.c_str(), 1);
  auto noToken = open(options);
  ASSERT_FALSE(static_cast<bool>(noToken));
  EXPECT_CONTAINS(llvm::toString(noToken.takeError()),
                  "EXECUTOR_TOKEN_FILE " + empty +
                      " holds no token on its first line");
  setenv("EXECUTOR_TOKEN_FILE", tokenFile().c_str(), 1);
  auto right = open(options);
  EXPECT_TRUE(static_cast<bool>(right)) << llvm::toString(right.takeError());
  for (const char *name : {"EXECUTOR_LAUNCH_TIMEOUT", "EXECUTOR_LIVENESS_TIMEOUT"}) {
    setenv(name, "5s", 1);
    auto bad = open(options);
    ASSERT_FALSE(static_cast<bool>(bad)) << name;
    EXPECT_CONTAINS(llvm::toString(bad.takeError()),
                    std::string(name) +
                        "='5s' is not a whole number of seconds (0 or more)");
    unsetenv(name);
  }
  std::string noCA = tempDir() + "/no-such-ca.pem";
  setenv("EXECUTOR_TLS_CA", noCA.c_str(), 1);
  auto badCA = open(ClientOptions());
  ASSERT_FALSE(static_cast<bool>(badCA));
  EXPECT_CONTAINS(llvm::toString(badCA.takeError()),
                  "cannot read the CA certificates in " + noCA +
                      " (EXECUTOR_TLS_CA)");
}

TEST_F(SecurityTest, AWrongTokenIsRefusedAtOnceAndTheNextGuessWaits) {
  std::vector<std::string> args = tlsArgs();
  args.insert(args.end(), {"--token-file", tokenFile(), "--auth-failure-delay",
                           "700ms"});
  startServer(args);
  ClientOptions wrong = secure();
  wrong.token = "0123456789abcdef-a-wrong-guess";
  auto start = Clock::now();
  auto first = open(wrong);
  ASSERT_FALSE(static_cast<bool>(first));
  EXPECT_CONTAINS(llvm::toString(first.takeError()),
                  "refused the session: wrong or missing token");
  // At once: not after a time-out (the old server let it wait 5 s); the
  // bound leaves room for a loaded machine.
  EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(3000));
  // At once again: refused without a guess, and told to wait.
  auto second = open(secure());
  ASSERT_FALSE(static_cast<bool>(second));
  EXPECT_CONTAINS(llvm::toString(second.takeError()),
                  "a wrong token came from this address just now; retry in");
  // Guesses: at most one per delay.
  int refused = 0;
  auto burst = Clock::now();
  while (Clock::now() - burst < std::chrono::seconds(1)) {
    auto guess = open(wrong);
    std::string message = llvm::toString(guess.takeError());
    if (message.find("wrong or missing token") != std::string::npos)
      ++refused;
  }
  EXPECT_LE(refused, 2);
  // Well past the delay (with room for a loaded machine, where the last
  // guess of the burst may have been judged late).
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  auto right = open(secure());
  EXPECT_TRUE(static_cast<bool>(right)) << llvm::toString(right.takeError());
  // No token at all.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ClientOptions none;
  none.tlsCA = ca();
  auto missing = open(none);
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_CONTAINS(llvm::toString(missing.takeError()),
                  "wrong or missing token (it needs a token");
}

//===----------------------------------------------------------------------===//
// 4. Least privilege, stopping, the log
//===----------------------------------------------------------------------===//

TEST_F(SecurityTest, SessionsOfARootServerRunAsNobodyWithNoNewPrivs) {
  if (geteuid() != 0)
    GTEST_SKIP() << "the server runs as root only when the test does";
  startServer();
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client));
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("whoami", kObjectA, {}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  std::vector<double> ids = (*out)[0].as<double>();
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids[0], 65534); // nobody
  EXPECT_NE(ids[1], 0);
  EXPECT_EQ(ids[2], 1); // no_new_privs
  EXPECT_CONTAINS(startupError({"--run-as", "no-such-user-here"}),
                  "--run-as: there is no user 'no-such-user-here'");
}

TEST_F(SecurityTest, SigtermStopsAServerWhoseKernelIgnoresIt) {
  startServer({"--stop-grace", "500ms"});
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client));
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  ASSERT_TRUE(static_cast<bool>((*client)->launchAsync("stubborn", kObjectA)));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::vector<pid_t> sessions = server.sessionProcesses();
  ASSERT_EQ(sessions.size(), 1u);
  ::kill(server.processId(), SIGTERM);
  EXPECT_TRUE(waitUntil([&] { return gone(server.processId()); },
                        std::chrono::seconds(3)));
  EXPECT_TRUE(gone(sessions[0]));
  client->reset();
  server.stop();
  EXPECT_CONTAINS(readFile(log), "did not end within 0.5 s of SIGTERM "
                                 "(--stop-grace): SIGKILL");
}

TEST_F(SecurityTest, SigtermLetsTheRunningLaunchFinishAndTellsTheOthers) {
  // Issue 26, item 7: SIGTERM one moment into a launch failed it at once
  // ("lost the session ... the executor stopped or the connection broke").
  // Within --stop-grace the running launch finishes; the other sessions
  // end, and their clients hear that the executor is shutting down.
  startServer({"--stop-grace", "60s"});
  auto running = open();
  ASSERT_TRUE(static_cast<bool>(running)) << llvm::toString(running.takeError());
  ASSERT_FALSE(static_cast<bool>((*running)->sendBinary(kObjectA)));
  auto idle = open();
  ASSERT_TRUE(static_cast<bool>(idle)) << llvm::toString(idle.takeError());
  ASSERT_FALSE(static_cast<bool>((*idle)->sendBinary(kObjectA)));
  std::vector<pid_t> sessions = server.sessionProcesses();
  ASSERT_EQ(sessions.size(), 2u);
  llvm::Expected<std::vector<HostMemRef>> result =
      std::vector<HostMemRef>();
  std::thread launch([&] {
    result = (*running)->launch("until_sigterm", kObjectA, {vec({3, 4})},
                                {{1, 8}});
  });
  // The kernel has begun when it has made its file.
  auto started = [&] {
    std::error_code ec;
    for (llvm::sys::fs::recursive_directory_iterator it(assetRoot, ec), end;
         it != end && !ec; it.increment(ec))
      if (llvm::sys::path::filename(it->path()) == "started")
        return true;
    return false;
  };
  ASSERT_TRUE(waitUntil(started, std::chrono::seconds(20)));
  ::kill(server.processId(), SIGTERM);
  launch.join();
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ((*result)[0].as<double>(), (std::vector<double>{9, 16}));
  // Both sessions end (the idle one at once, the other after its launch),
  // and the server with them, within the grace period: no SIGKILL.
  for (pid_t pid : sessions)
    EXPECT_TRUE(waitUntil([&] { return gone(pid); }, std::chrono::seconds(20)));
  EXPECT_TRUE(waitUntil([&] { return gone(server.processId()); },
                        std::chrono::seconds(20)));
  // A client cut off by the shutdown is told so.
  for (auto *client : {&*running, &*idle}) {
    auto after = (*client)->launch("square", kObjectA, {vec({1})}, {{1, 8}});
    ASSERT_FALSE(static_cast<bool>(after));
    EXPECT_CONTAINS(llvm::toString(after.takeError()),
                    "executor " + server.address() + " is shutting down");
  }
  running->reset();
  idle->reset();
  server.stop();
  std::string text = readFile(log);
  EXPECT_CONTAINS(text, "stopped: the server is shutting down");
  EXPECT_CONTAINS(text, "(until_sigterm)");
  EXPECT_EQ(text.find("SIGKILL"), std::string::npos) << text;
}

TEST_F(SecurityTest, AnObjectSentAfterSigtermHearsTheExecutorIsShuttingDown) {
  // Issue 40: a client whose session SIGTERM ended, sending an object, was
  // told nothing of the shutdown (and LLVM's debug-object plugin crashed
  // the client on the failed link): it hears what docs/executors.md
  // ("Limits") promises.
  startServer({"--stop-grace", "60s"});
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  std::vector<pid_t> sessions = server.sessionProcesses();
  ASSERT_EQ(sessions.size(), 1u);
  ::kill(server.processId(), SIGTERM);
  ASSERT_TRUE(waitUntil([&] { return gone(sessions[0]); },
                        std::chrono::seconds(20)));
  llvm::Error sent = (*client)->sendBinary(kObjectA);
  ASSERT_TRUE(static_cast<bool>(sent));
  EXPECT_EQ(llvm::toString(std::move(sent)),
            "executor " + server.address() +
                " is shutting down (the session ended during sending object " +
                kObjectA + ")");
  client->reset();
  server.stop();
}

TEST_F(SecurityTest, TheServersDeathTakesItsSessions) {
  startServer();
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client));
  std::vector<pid_t> sessions = server.sessionProcesses();
  ASSERT_EQ(sessions.size(), 1u);
  ::kill(server.processId(), SIGKILL); // the listener only, not its group
  EXPECT_TRUE(waitUntil([&] { return gone(sessions[0]); },
                        std::chrono::seconds(2)))
      << "the session outlived its server";
  auto out = (*client)->launch("k", kObjectA, {vec({1})}, {{1, 8}});
  EXPECT_FALSE(static_cast<bool>(out));
  llvm::consumeError(out.takeError());
}

TEST_F(SecurityTest, ClientTextIsEscapedInTheLog) {
  startServer();
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client));
  auto object = llvm::MemoryBuffer::getFile(kObjectA);
  ASSERT_TRUE(static_cast<bool>(object));
  std::string name = "evil\nexecutor-server: listener: \x1b[31mforged";
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(
      name, llvm::ArrayRef<char>((*object)->getBufferStart(),
                                 (*object)->getBufferSize()))));
  client->reset();
  server.stop();
  std::string text = readFile(log);
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find("\nexecutor-server: listener: \x1b[31mforged"),
            std::string::npos)
      << text;
  EXPECT_CONTAINS(text, "object loaded: evil\\x0aexecutor-server: listener: "
                        "\\x1b[31mforged");
}

TEST_F(SecurityTest, HelpDescribesEveryOptionAndVersionPrintsTheVersion) {
  std::string out = tempDir() + "/help.txt";
  ASSERT_EQ(executor_test::runTool(kServer, {"--help"}, out), 0);
  std::string help = readFile(out);
  for (const char *option :
       {"--bind", "--allow-remote", "--insecure-plaintext", "--tls-cert",
        "--tls-key", "--token-file", "--auth-failure-delay", "--auth-timeout",
        "--max-pending", "--max-pending-per-address",
        "--handshake-timeout", "--max-sessions", "--max-message-size",
        "--max-session-memory", "--max-launch-time", "--liveness-timeout",
        "--stop-grace", "--run-as", "--plugin", "--asset-root", "--services",
        "--log", "--help", "--version", "--no-token", "--require-isolation",
        "--max-session-processes", "--unix-mode", "--no-kernel-heap",
        "--debug-wait", "--session-network", "--allow-syscall"})
    EXPECT_CONTAINS(help, option);
  ASSERT_EQ(executor_test::runTool(kServer, {"--version"}, out), 0);
  EXPECT_EQ(readFile(out), "Executor Studio " EXECUTOR_STUDIO_VERSION "\n");
}

//===----------------------------------------------------------------------===//
// 5. Issue 22: the token is proved, never sent; a flood cannot lock users out
//===----------------------------------------------------------------------===//

namespace {
/// A listener on a free loopback port that plays an executor with
/// `script` (given the accepted socket) and records every byte the client
/// sends until it closes: what a fake executor learns.
class FakeExecutor {
public:
  explicit FakeExecutor(std::function<void(int)> script) {
    listener = bindLoopback(true, address);
    thread = std::thread([this, script] {
      pollfd p{listener, POLLIN, 0};
      if (poll(&p, 1, 5000) <= 0)
        return;
      int fd = accept(listener, nullptr, nullptr);
      if (fd < 0)
        return;
      script(fd);
      char buffer[4096];
      pollfd q{fd, POLLIN, 0};
      while (poll(&q, 1, 3000) > 0) {
        ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
        if (n <= 0)
          break;
        std::lock_guard<std::mutex> lock(mutex);
        seen.append(buffer, static_cast<size_t>(n));
      }
      close(fd);
    });
  }
  ~FakeExecutor() {
    if (thread.joinable())
      thread.join();
    close(listener);
  }
  /// Everything the client sent (waits until it has closed).
  std::string sent() {
    if (thread.joinable())
      thread.join();
    return seen;
  }
  /// Reads one line the client sent, by the script.
  static std::string lineFrom(int fd) {
    std::string line;
    readLine(fd, line, Clock::now() + std::chrono::seconds(3));
    return line;
  }
  std::string address;

private:
  int listener = -1;
  std::thread thread;
  std::mutex mutex;
  std::string seen;
};

void sendText(int fd, const std::string &text) {
  writeAll(fd, text.data(), text.size());
}

std::string hexOf(const std::string &text) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : text) {
    hex.push_back(digits[c >> 4]);
    hex.push_back(digits[c & 15]);
  }
  return hex;
}

/// A TCP connection to `address` from the loopback address `from`
/// (127.0.0.2 ...), so a test can be several peers.
int connectFrom(const std::string &from, const std::string &address) {
  std::string host, port, error;
  if (!splitAddress(address, host, port, error))
    return -1;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  inet_pton(AF_INET, from.c_str(), &local.sin_addr);
  sockaddr_in remote{};
  remote.sin_family = AF_INET;
  remote.sin_port = htons(static_cast<uint16_t>(std::stoi(port)));
  inet_pton(AF_INET, host.c_str(), &remote.sin_addr);
  if (fd < 0 ||
      bind(fd, reinterpret_cast<sockaddr *>(&local), sizeof(local)) != 0 ||
      connect(fd, reinterpret_cast<sockaddr *>(&remote), sizeof(remote)) != 0) {
    if (fd >= 0)
      close(fd);
    return -1;
  }
  return fd;
}
} // namespace

TEST_F(SecurityTest, AFakeListenerLearnsNothingItCanReplay) {
  // The old client sent "EXECUTOR-TOKEN <token>" to whoever asked: a fake
  // listener captured it. Now it gets a proof bound to its own nonce and a
  // fresh one of the client's.
  std::string challenge(64, '7');
  FakeExecutor fake([&](int fd) {
    sendText(fd, std::string("EXECUTOR-CHALLENGE ") + challenge + "\n");
  });
  ClientOptions options;
  options.token = kToken;
  options.handshakeTimeout = std::chrono::milliseconds(1000);
  auto client = ExecutorClient::open(fake.address, options);
  ASSERT_FALSE(static_cast<bool>(client));
  EXPECT_CONTAINS(llvm::toString(client.takeError()),
                  "did not answer the token's proof");
  std::string captured = fake.sent();
  EXPECT_EQ(captured.find(kToken), std::string::npos) << "the token in clear";
  EXPECT_EQ(captured.find(hexOf(kToken)), std::string::npos);
  ASSERT_EQ(captured.rfind("EXECUTOR-PROOF ", 0), 0u) << captured;
  EXPECT_EQ(captured.find('\n'), captured.size() - 1) << "more than the proof";
  // Replayed to the real server (which has that token), the proof is
  // refused: the server's challenge is new.
  startServer({"--token-file", tokenFile()});
  int fd = rawConnect(server.address());
  ASSERT_GE(fd, 0);
  std::string line = FakeExecutor::lineFrom(fd);
  ASSERT_EQ(line.rfind("EXECUTOR-CHALLENGE ", 0), 0u) << line;
  EXPECT_NE(line.substr(19), challenge);
  sendText(fd, captured);
  EXPECT_EQ(FakeExecutor::lineFrom(fd),
            "EXECUTOR-REFUSED wrong or missing token");
  close(fd);
  // A second client's proof to the same challenge differs (its nonce).
  FakeExecutor again([&](int fd) {
    sendText(fd, std::string("EXECUTOR-CHALLENGE ") + challenge + "\n");
  });
  auto second = ExecutorClient::open(again.address, options);
  llvm::consumeError(second.takeError());
  EXPECT_NE(again.sent(), captured);
}

namespace {
/// A man in the middle with a certificate the client trusts (issued by a
/// CA the client should not have trusted, or a TLS-terminating proxy's):
/// it ends the client's TLS with `own`, opens TLS of its own to the
/// executor at `target` (trusting `targetCA`) and relays the challenge, the
/// client's proof, the server's answer and then everything else between
/// the two, all of it plaintext to it. It may rewrite the client's proof
/// line: put the name of its own connection to the server in place of the
/// client's, or drop the name (as a client older than the binding sent).
class TlsRelay {
public:
  enum Rewrite { None, OwnName, NoName };
  TlsRelay(const std::string &target, const std::string &targetCA,
           const TlsServerContext &own, Rewrite rewrite = None)
      : rewrite(rewrite) {
    listener = bindLoopback(true, address);
    thread = std::thread(
        [this, target, targetCA, &own] { run(target, targetCA, own); });
  }
  ~TlsRelay() {
    stop = true;
    thread.join();
    close(listener);
  }
  /// The server's answer to the relayed proof ("" before it came).
  std::string answer() {
    std::lock_guard<std::mutex> lock(mutex);
    return serverAnswer;
  }
  std::string address;

private:
  void run(const std::string &target, const std::string &targetCA,
           const TlsServerContext &own) {
    pollfd p{listener, POLLIN, 0};
    if (poll(&p, 1, 5000) <= 0)
      return;
    int clientFd = accept(listener, nullptr, nullptr);
    std::string error, line;
    int serverFd = connectTo(target, std::chrono::seconds(2), error);
    auto deadline = Clock::now() + std::chrono::seconds(5);
    std::unique_ptr<TlsStream> toServer, toClient;
    if (clientFd >= 0 && serverFd >= 0 &&
        readLine(serverFd, line, deadline) && line == "EXECUTOR-TLS")
      toServer = TlsStream::connect(targetCA, "127.0.0.1", serverFd, deadline,
                                    error);
    if (toServer) {
      sendText(clientFd, "EXECUTOR-TLS\n");
      toClient = TlsStream::accept(own, clientFd, deadline, error);
    }
    if (!toServer || !toClient) {
      ADD_FAILURE() << "the relay could not start: " << error;
      if (!toServer && serverFd >= 0)
        close(serverFd);
      if (!toClient && clientFd >= 0)
        close(clientFd);
      return;
    }
    auto pass = [&](TlsStream &from, TlsStream &to) {
      if (!from.readLine(line, deadline))
        return false;
      std::string binding, name;
      if (rewrite != None && line.rfind("EXECUTOR-PROOF ", 0) == 0 &&
          tlsChannel(*toServer, binding, name))
        line = line.substr(0, line.rfind(' ')) +
               (rewrite == OwnName ? " " + name : "");
      std::string text = line + "\n";
      return to.writeAll(text.data(), text.size());
    };
    // The challenge, the proof, the server's answer.
    if (!pass(*toServer, *toClient) || !pass(*toClient, *toServer) ||
        !toServer->readLine(line, deadline))
      return;
    {
      std::lock_guard<std::mutex> lock(mutex);
      serverAnswer = line;
    }
    line += "\n";
    if (!toClient->writeAll(line.data(), line.size()))
      return;
    // Then ORC, both ways.
    TlsStream *side[2] = {toClient.get(), toServer.get()};
    char buffer[65536];
    while (!stop) {
      bool moved = false;
      for (int i = 0; i < 2; ++i) {
        ssize_t n = side[i]->read(buffer, sizeof(buffer), /*dontWait=*/true);
        if (n == 0 || (n < 0 && errno != EAGAIN))
          return;
        if (n > 0 && !side[1 - i]->writeAll(buffer, static_cast<size_t>(n)))
          return;
        moved |= n > 0;
      }
      pollfd q[2] = {{side[0]->fd(), POLLIN, 0}, {side[1]->fd(), POLLIN, 0}};
      if (!moved)
        poll(q, 2, 100);
    }
  }
  Rewrite rewrite;
  int listener = -1;
  std::thread thread;
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::string serverAnswer;
};
} // namespace

TEST_F(SecurityTest, ATokenProofRelayedBetweenTwoTlsConnectionsIsRefused) {
  // Issue 41: the proof covered the nonces only, so a man in the middle
  // that the client trusted passed a real client's proof on to the server
  // and had the session. Now it covers the TLS connection too (the
  // exporter of each end's connection): the server refuses it.
  std::vector<std::string> args = tlsArgs();
  args.insert(args.end(), {"--token-file", tokenFile()});
  startServer(args);
  std::string error;
  auto own = TlsServerContext::load(tempDir() + "/other-ca/server.pem",
                                    tempDir() + "/other-ca/server.key", error);
  ASSERT_TRUE(own) << error;
  ClientOptions trustsTheRelay;
  trustsTheRelay.tlsCA = tempDir() + "/other-ca/ca.pem";
  trustsTheRelay.token = kToken;
  {
    TlsRelay relay(server.address(), ca(), *own);
    auto client = ExecutorClient::open(relay.address, trustsTheRelay);
    ASSERT_FALSE(static_cast<bool>(client))
        << "the relayed proof opened a session";
    std::string message = llvm::toString(client.takeError());
    EXPECT_CONTAINS(message, "refused the session: the client's proof was "
                             "made on another TLS connection");
    EXPECT_EQ(relay.answer().rfind("EXECUTOR-REFUSED ", 0), 0u)
        << relay.answer();
  }
  // The client itself, straight to the server, has its session.
  auto direct = open(secure());
  ASSERT_TRUE(static_cast<bool>(direct)) << llvm::toString(direct.takeError());
  direct->reset();
  {
    // One that drops the name, as a client older than the binding: told so.
    TlsRelay relay(server.address(), ca(), *own, TlsRelay::NoName);
    auto client = ExecutorClient::open(relay.address, trustsTheRelay);
    ASSERT_FALSE(static_cast<bool>(client))
        << "the relayed proof opened a session";
    EXPECT_CONTAINS(llvm::toString(client.takeError()),
                    "refused the session: the client's proof is not bound to "
                    "the TLS connection (a client older than this "
                    "executor-server)");
  }
  {
    // One that names its own connection on the client's line: the proof
    // itself does not hold for that connection (a wrong token, last: the
    // throttle holds this address back a while).
    TlsRelay relay(server.address(), ca(), *own, TlsRelay::OwnName);
    auto client = ExecutorClient::open(relay.address, trustsTheRelay);
    ASSERT_FALSE(static_cast<bool>(client))
        << "the relayed proof opened a session";
    EXPECT_CONTAINS(llvm::toString(client.takeError()),
                    "refused the session: wrong or missing token");
    EXPECT_EQ(relay.answer(), "EXECUTOR-REFUSED wrong or missing token");
  }
  server.stop();
  EXPECT_CONTAINS(readFile(log), "made on another TLS connection");
}

TEST_F(SecurityTest, AClientSendsNothingToAnExecutorThatCannotProveTheToken) {
  ClientOptions options;
  options.token = kToken;
  options.handshakeTimeout = std::chrono::milliseconds(1000);
  // It answers the proof with a proof of its own, made up.
  FakeExecutor guesser([](int fd) {
    sendText(fd, "EXECUTOR-CHALLENGE " + std::string(64, 'a') + "\n");
    std::string proof = FakeExecutor::lineFrom(fd);
    sendText(fd, "EXECUTOR-PROOF " + std::string(64, 'b') + "\n");
  });
  auto client = ExecutorClient::open(guesser.address, options);
  ASSERT_FALSE(static_cast<bool>(client));
  EXPECT_CONTAINS(llvm::toString(client.takeError()),
                  "did not prove that it knows the token (a fake executor, or "
                  "one with another token): nothing was sent to it");
  EXPECT_TRUE(guesser.sent().empty()) << "sent after the proof failed";
  // It starts ORC at once (an executor without a token, or one that
  // pretends): not one byte goes to it.
  FakeExecutor orc([](int fd) {
    char header[32] = {32, 0, 0, 0, 0, 0, 0, 0, 1};
    writeAll(fd, header, sizeof(header));
  });
  auto atOnce = ExecutorClient::open(orc.address, options);
  ASSERT_FALSE(static_cast<bool>(atOnce));
  EXPECT_CONTAINS(llvm::toString(atOnce.takeError()),
                  "started a session without proving that it knows the token");
  EXPECT_EQ(orc.sent(), "");
  // It asks for the token in clear, as servers before the proof did.
  FakeExecutor old([](int fd) { sendText(fd, "EXECUTOR-TOKEN\n"); });
  auto inClear = ExecutorClient::open(old.address, options);
  ASSERT_FALSE(static_cast<bool>(inClear));
  EXPECT_CONTAINS(llvm::toString(inClear.takeError()),
                  "asked for the token in clear text");
  EXPECT_EQ(old.sent(), "");
  // The real server with another token: refused before anything is shipped.
  std::string otherToken = tempDir() + "/other-token";
  std::ofstream(otherToken) << "another-token-0123456789abcdef\n";
  chmod(otherToken.c_str(), 0600);
  startServer({"--token-file", otherToken});
  auto other = open(options);
  ASSERT_FALSE(static_cast<bool>(other));
  EXPECT_CONTAINS(llvm::toString(other.takeError()),
                  "refused the session: wrong or missing token");
  EXPECT_TRUE(server.sessionProcesses().empty());
  // A server without a token: refused too, with the reason.
  server.stop();
  startServer({"--no-token"});
  auto none = open(options);
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_CONTAINS(llvm::toString(none.takeError()),
                  "unset the token to use an executor that has none");
}

TEST_F(SecurityTest, ATokenGoesInPlaintextOnlyToLoopbackUnlessSaidOtherwise) {
  // An address of this host that is not loopback.
  std::string ip;
  ifaddrs *all = nullptr;
  if (getifaddrs(&all) == 0) {
    for (ifaddrs *a = all; a && ip.empty(); a = a->ifa_next)
      if (a->ifa_addr && a->ifa_addr->sa_family == AF_INET &&
          (a->ifa_flags & IFF_UP)) {
        char text[INET_ADDRSTRLEN];
        auto *in = reinterpret_cast<sockaddr_in *>(a->ifa_addr);
        if ((ntohl(in->sin_addr.s_addr) >> 24) != 127 &&
            inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text)))
          ip = text;
      }
    freeifaddrs(all);
  }
  if (ip.empty())
    GTEST_SKIP() << "this host has no IPv4 address but loopback";
  // A free port on it (the server's first address is its loopback one).
  int probe = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in at{};
  at.sin_family = AF_INET;
  inet_pton(AF_INET, ip.c_str(), &at.sin_addr);
  socklen_t atLength = sizeof(at);
  ASSERT_EQ(bind(probe, reinterpret_cast<sockaddr *>(&at), sizeof(at)), 0);
  getsockname(probe, reinterpret_cast<sockaddr *>(&at), &atLength);
  close(probe);
  std::string address = ip + ":" + std::to_string(ntohs(at.sin_port));
  startServer({"--bind", address, "--allow-remote", "--insecure-plaintext",
               "--token-file", tokenFile()});
  ClientOptions options;
  options.token = kToken;
  unsetenv("EXECUTOR_INSECURE_PLAINTEXT");
  auto refused = ExecutorClient::open(address, options);
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_CONTAINS(llvm::toString(refused.takeError()),
                  "refusing a session with a token in plaintext to an address "
                  "that is not loopback");
  EXPECT_CONTAINS(llvm::toString(
                      ExecutorClient::open(address, options).takeError()),
                  "EXECUTOR_INSECURE_PLAINTEXT=1");
  setenv("EXECUTOR_INSECURE_PLAINTEXT", "1", 1);
  auto allowed = ExecutorClient::open(address, options);
  unsetenv("EXECUTOR_INSECURE_PLAINTEXT");
  EXPECT_TRUE(static_cast<bool>(allowed)) << llvm::toString(allowed.takeError());
}

TEST_F(SecurityTest, AFloodOfIdleConnectionsDoesNotLockAClientOut) {
  // Issue 22: 64 idle sockets re-opened continuously let 2 of 35 clients
  // in within 30 s. 2,000 idle sockets from one address (127.0.0.2) now
  // hold no session and no process; a client (127.0.0.1) gets in.
  if (std::string why = tooFewFiles(2100); !why.empty())
    GTEST_SKIP() << why;
  for (bool tls : {false, true}) {
    SCOPED_TRACE(tls ? "tls" : "plaintext");
    ASSERT_NO_FATAL_FAILURE(startServerOver(
        tls ? "tls" : "tcp", {"--token-file", tokenFile(), "--max-sessions", "4"}));
    std::vector<int> flood;
    llvm::scope_exit closeFlood([&] {
      for (int fd : flood)
        close(fd);
    });
    for (int i = 0; i < 2000; ++i) {
      int fd = connectFrom("127.0.0.2", server.address());
      ASSERT_GE(fd, 0) << "connection " << i << ": " << std::strerror(errno);
      flood.push_back(fd);
    }
    EXPECT_TRUE(server.sessionProcesses().empty())
        << "a process for a connection that has not authenticated";
    ClientOptions options = tls ? secure() : ClientOptions();
    options.token = kToken;
    ASSERT_NO_FATAL_FAILURE(expectServedPromptly(options));
    server.stop();
    // Issue 40: a full budget no longer refuses the newcomer (on loopback
    // every user shares one address, so that locked everyone out); it
    // closes that address's oldest connection that has proved nothing.
    // 2,000 from one address overflow --max-pending-per-address (2048)
    // only when the open-file limit lowered it: the log says so then.
    std::string text = readFile(log);
    EXPECT_EQ(text.find("connections authenticating already"),
              std::string::npos)
        << text;
    if (text.find("--max-pending 4096 lowered") != std::string::npos)
      EXPECT_CONTAINS(text, "to make room: this address had ");
  }
}

namespace {
/// The number of descriptors process `pid` holds.
size_t openFiles(pid_t pid) {
  std::error_code ec;
  size_t count = 0;
  for (auto it = std::filesystem::directory_iterator(
           "/proc/" + std::to_string(pid) + "/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    ++count;
  return count;
}
} // namespace

TEST_F(SecurityTest, AFloodFromTheClientsOwnAddressDoesNotLockItOut) {
  // Issue 40: 4 silent sockets from 127.0.0.1 made every later client
  // there hear "this address has 4 connections authenticating already",
  // and on loopback every user is 127.0.0.1. Now 2,000 idle and half-open
  // connections from the client's own address all wait, in the listener,
  // with no process; a client that proves its token promptly is served
  // within 2 s, over TCP and TLS.
  if (std::string why = tooFewFiles(2200); !why.empty())
    GTEST_SKIP() << why;
  for (bool tls : {false, true}) {
    SCOPED_TRACE(tls ? "tls" : "plaintext");
    ASSERT_NO_FATAL_FAILURE(startServerOver(
        tls ? "tls" : "tcp", {"--token-file", tokenFile(), "--max-sessions", "8"}));
    std::vector<int> flood;
    llvm::scope_exit closeFlood([&] {
      for (int fd : flood)
        close(fd);
    });
    for (int i = 0; i < 2000; ++i) {
      int fd = connectFrom("127.0.0.1", server.address());
      ASSERT_GE(fd, 0) << "connection " << i << ": " << std::strerror(errno);
      flood.push_back(fd);
      // Every other one half-open: the start of a TLS record (a
      // ClientHello that never ends), or of a proof line.
      if (i % 2) {
        std::string part = tls ? std::string("\x16\x03\x01\x02", 4)
                               : std::string("EXECUTOR-PROOF 12");
        sendText(fd, part);
      }
    }
    // The listener holds them all (no process, a descriptor each).
    EXPECT_TRUE(waitUntil(
        [&] { return openFiles(server.processId()) >= 2000; },
        std::chrono::seconds(2)))
        << openFiles(server.processId()) << " descriptors";
    EXPECT_TRUE(server.sessionProcesses().empty())
        << "a process for a connection that has not authenticated";
    ClientOptions options = tls ? secure() : ClientOptions();
    options.token = kToken;
    ASSERT_NO_FATAL_FAILURE(expectServedPromptly(options));
    server.stop();
  }
}

TEST_F(SecurityTest, SilentConnectionsTakeNoSessionWithoutAuthenticationToo) {
  // Issue 40: where nothing is authenticated (a Unix socket, --no-token) a
  // session was forked at accept, so 200 idle sockets filled
  // --max-sessions 8 and the next client heard "busy". Now the listener
  // sends ORC's Setup itself and forks only when the client's first ORC
  // header has come whole: 2,000 idle and half-open connections (half of
  // a header) cost no process, and a client is served within 2 s.
  if (std::string why = tooFewFiles(2200); !why.empty())
    GTEST_SKIP() << why;
  for (std::string wire : {"unix", "tcp"}) {
    SCOPED_TRACE(wire);
    ClientOptions options =
        startServerOver(wire, {"--no-token", "--max-sessions", "8"});
    std::vector<int> flood;
    llvm::scope_exit closeFlood([&] {
      for (int fd : flood)
        close(fd);
    });
    std::string path;
    bool onUnix = isUnixAddress(server.address(), &path);
    for (int i = 0; i < 2000; ++i) {
      std::string error;
      int fd = onUnix ? connectUnix(path, std::chrono::seconds(2), error)
                      : rawConnect(server.address());
      ASSERT_GE(fd, 0) << "connection " << i << ": " << error;
      flood.push_back(fd);
      if (i % 2) {
        char header[16] = {32}; // half of an ORC header
        writeAll(fd, header, sizeof(header));
      }
    }
    EXPECT_TRUE(waitUntil(
        [&] { return openFiles(server.processId()) >= 2000; },
        std::chrono::seconds(2)))
        << openFiles(server.processId()) << " descriptors";
    EXPECT_TRUE(server.sessionProcesses().empty())
        << "a process for a connection whose client has not spoken";
    ASSERT_NO_FATAL_FAILURE(expectServedPromptly(options));
    server.stop();
  }
}

TEST_F(SecurityTest, AClientGetsInWhileAFloodKeepsConnectingFromItsAddress) {
  // Issue 40: with the budget full and new idle sockets coming all the
  // time from 127.0.0.1, each new one closes the oldest; a client there
  // that proves its token promptly is never the oldest for long enough to
  // be closed, and gets in. (It must outlast the connections that come
  // after it while it proves the token: with the default budget, 2,048
  // from its address, at least 8 turns of the listener's loop. A budget
  // smaller than a turn's 256 accepts gives a flood at full speed the
  // chance to close it first.)
  if (std::string why = tooFewFiles(3000); !why.empty())
    GTEST_SKIP() << why;
  startServer({"--token-file", tokenFile()});
  std::atomic<bool> stop{false};
  std::atomic<int> opened{0};
  std::thread flooder([&] {
    std::deque<int> held;
    while (!stop) {
      int fd = connectFrom("127.0.0.1", server.address());
      if (fd >= 0) {
        held.push_back(fd);
        ++opened;
      }
      if (held.size() > 2500) {
        close(held.front());
        held.pop_front();
      }
    }
    for (int fd : held)
      close(fd);
  });
  llvm::scope_exit stopFlood([&] {
    stop = true;
    flooder.join();
  });
  // The budget overflows, and the flood goes on.
  ASSERT_TRUE(waitUntil([&] { return opened >= 2100; },
                        std::chrono::seconds(10)));
  ClientOptions options;
  options.token = kToken;
  for (int i = 0; i < 5; ++i)
    ASSERT_NO_FATAL_FAILURE(expectServedPromptly(options, false));
  stop = true;
  server.stop();
  EXPECT_CONTAINS(readFile(log), "to make room: this address had 2048 "
                                 "connections authenticating");
}

TEST_F(SecurityTest, AFullPendingBudgetClosesTheOldestNeverTheNewest) {
  // Issue 40: when a budget is full, the oldest connection that has proved
  // nothing makes room; the newcomer is never the one refused.
  startServer({"--token-file", tokenFile(), "--max-pending", "8",
               "--max-pending-per-address", "4"});
  auto challenged = [](int fd) {
    std::string line = FakeExecutor::lineFrom(fd);
    return line.rfind("EXECUTOR-CHALLENGE ", 0) == 0;
  };
  std::vector<int> first; // from 127.0.0.1, oldest first
  for (int i = 0; i < 5; ++i) {
    int fd = connectFrom("127.0.0.1", server.address());
    ASSERT_GE(fd, 0);
    EXPECT_TRUE(challenged(fd)) << i; // each is taken
    first.push_back(fd);
  }
  // The fifth made its address's budget (4) overflow: the first went.
  std::string line = FakeExecutor::lineFrom(first[0]);
  EXPECT_CONTAINS(line, "EXECUTOR-REFUSED closed to make room: this address "
                        "had 4 connections authenticating "
                        "(--max-pending-per-address)");
  EXPECT_TRUE(closedWithin(first[0], std::chrono::seconds(2)));
  // Four more from 127.0.0.2 fill the global budget (8); the next, from
  // 127.0.0.3, closes the oldest of all: the second from 127.0.0.1.
  std::vector<int> second;
  for (int i = 0; i < 4; ++i) {
    int fd = connectFrom("127.0.0.2", server.address());
    ASSERT_GE(fd, 0);
    EXPECT_TRUE(challenged(fd));
    second.push_back(fd);
  }
  int third = connectFrom("127.0.0.3", server.address());
  ASSERT_GE(third, 0);
  EXPECT_TRUE(challenged(third));
  EXPECT_CONTAINS(FakeExecutor::lineFrom(first[1]),
                  "EXECUTOR-REFUSED closed to make room: 8 connections were "
                  "authenticating (--max-pending)");
  // Still full: a client with the token gets in all the same.
  ClientOptions options;
  options.token = kToken;
  auto client = open(options);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  EXPECT_CONTAINS(FakeExecutor::lineFrom(first[2]), "closed to make room");
  for (int fd : first)
    close(fd);
  for (int fd : second)
    close(fd);
  close(third);
  client->reset();
  server.stop();
  EXPECT_CONTAINS(readFile(log), "to make room: this address had 4 "
                                 "connections authenticating");
}

TEST_F(SecurityTest, WrongTokensAreThrottledAcrossAddressesToo) {
  // Issue 22: rotating through 127/8 made 373 guesses a second. Across all
  // addresses at most 16 proofs are judged wrong per --auth-failure-delay;
  // the rest wait (and time out).
  startServer({"--token-file", tokenFile(), "--auth-failure-delay", "2s",
               "--auth-timeout", "1s", "--max-pending", "64",
               "--max-pending-per-address", "1"});
  std::vector<int> guesses;
  for (int i = 0; i < 40; ++i) {
    int fd = connectFrom("127.0.1." + std::to_string(i + 1), server.address());
    ASSERT_GE(fd, 0);
    guesses.push_back(fd);
  }
  for (int fd : guesses) {
    std::string line = FakeExecutor::lineFrom(fd);
    ASSERT_EQ(line.rfind("EXECUTOR-CHALLENGE ", 0), 0u) << line;
    sendText(fd, "EXECUTOR-PROOF " + std::string(64, '1') + " " +
                     std::string(64, '2') + "\n");
  }
  int judged = 0, waited = 0;
  for (int fd : guesses) {
    std::string line = FakeExecutor::lineFrom(fd);
    if (line == "EXECUTOR-REFUSED wrong or missing token")
      ++judged;
    else if (line.find("did not authenticate within 1 s") != std::string::npos)
      ++waited;
    close(fd);
  }
  EXPECT_LE(judged, 16);
  EXPECT_GE(judged, 1);
  EXPECT_EQ(judged + waited, 40);
}

namespace {
/// Runs `attempt` in a child process that has become user nobody; what it
/// returns (or why it could not become nobody).
std::string asNobody(const std::function<std::string()> &attempt) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0)
    return "pipe failed";
  pid_t child = fork();
  if (child == 0) {
    close(out[0]);
    std::string message =
        setgroups(0, nullptr) == 0 && setgid(65534) == 0 && setuid(65534) == 0
            ? attempt()
            : "cannot become nobody";
    (void)!write(out[1], message.data(), message.size());
    _exit(0);
  }
  close(out[1]);
  std::string text;
  char buffer[4096];
  ssize_t n;
  while ((n = read(out[0], buffer, sizeof(buffer))) > 0)
    text.append(buffer, static_cast<size_t>(n));
  close(out[0]);
  waitpid(child, nullptr, 0);
  return text;
}

std::string openError(const std::string &address) {
  auto client = ExecutorClient::open(address);
  if (client)
    return "opened a session";
  return llvm::toString(client.takeError());
}
} // namespace

TEST_F(SecurityTest, AnotherUserCannotRunAKernelOnAPrivateExecutor) {
  // Issue 22: with no flags, user nobody ran a kernel as the server's user.
  if (geteuid() != 0)
    GTEST_SKIP() << "needs root, to run a client as another user (nobody)";
  // Loopback TCP: a generated token, in a file only this user reads.
  startServer();
  std::string port = server.address().substr(server.address().rfind(':') + 1);
  std::string tokenPath = generatedTokenPath(std::stoul(port));
  struct stat st{};
  ASSERT_EQ(stat(tokenPath.c_str(), &st), 0) << tokenPath;
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_uid, geteuid());
  ASSERT_EQ(stat(privateRuntimeDirectory().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  std::string theirs = asNobody([&] { return openError(server.address()); });
  EXPECT_CONTAINS(theirs, "refused the session: wrong or missing token");
  EXPECT_CONTAINS(asNobody([&] {
                    return std::ifstream(tokenPath) ? "read the token"
                                                    : "cannot read it";
                  }),
                  "cannot read it");
  // This user's client finds the token by itself.
  auto mine = open();
  ASSERT_TRUE(static_cast<bool>(mine)) << llvm::toString(mine.takeError());
  ASSERT_FALSE(static_cast<bool>((*mine)->sendBinary(kObjectA)));
  auto out = (*mine)->launch("square", kObjectA, {vec({3})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{9});
  mine->reset();
  server.stop();
  EXPECT_NE(stat(tokenPath.c_str(), &st), 0) << "the token file stayed";
  // --no-token: anyone on this host, as asked.
  startServer({"--no-token"});
  EXPECT_EQ(asNobody([&] { return openError(server.address()); }),
            "opened a session");
  server.stop();

  // With $XDG_RUNTIME_DIR and no --bind: a Unix socket of mode 0600 there.
  std::string runtime = tempDir() + "/run";
  llvm::sys::fs::create_directories(runtime);
  chmod(runtime.c_str(), 0755);
  const char *before = std::getenv("XDG_RUNTIME_DIR");
  std::string saved = before ? before : "";
  setenv("XDG_RUNTIME_DIR", runtime.c_str(), 1);
  llvm::scope_exit restore([&] {
    if (before)
      setenv("XDG_RUNTIME_DIR", saved.c_str(), 1);
    else
      unsetenv("XDG_RUNTIME_DIR");
  });
  int stdoutPipe[2];
  ASSERT_EQ(pipe2(stdoutPipe, O_CLOEXEC), 0);
  pid_t child = fork();
  if (child == 0) {
    dup2(stdoutPipe[1], STDOUT_FILENO);
    int logFd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(logFd, STDERR_FILENO);
    execl(kServer.c_str(), kServer.c_str(), "--asset-root", assetRoot.c_str(),
          nullptr);
    _exit(127);
  }
  close(stdoutPipe[1]);
  llvm::scope_exit stopServer([&] {
    ::kill(child, SIGTERM);
    waitpid(child, nullptr, 0);
    close(stdoutPipe[0]);
  });
  std::string line;
  ASSERT_TRUE(readLine(stdoutPipe[0], line, Clock::now() + std::chrono::seconds(10)))
      << readFile(log);
  std::string expected = "listening on unix:" + runtime + "/executor-studio/";
  ASSERT_EQ(line.rfind(expected, 0), 0u) << line;
  std::string address = line.substr(std::strlen("listening on "));
  ASSERT_EQ(stat(address.substr(5).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_CONTAINS(asNobody([&] { return openError(address); }),
                  "Permission denied");
  auto local = ExecutorClient::open(address);
  ASSERT_TRUE(static_cast<bool>(local)) << llvm::toString(local.takeError());
  ASSERT_FALSE(static_cast<bool>((*local)->sendBinary(kObjectA)));
}

//===----------------------------------------------------------------------===//
// 6. Issue 22: what a session may do
//===----------------------------------------------------------------------===//

TEST_F(SecurityTest, AKernelInheritsNoDescriptorOfTheListener) {
  // Issue 22: a kernel inherited the listener's wrong-token pipe (fd 6):
  // one line made the listener refuse the next client.
  startServer({"--token-file", tokenFile()});
  ClientOptions options;
  options.token = kToken;
  auto first = open(options);
  ASSERT_TRUE(static_cast<bool>(first)) << llvm::toString(first.takeError());
  int idle = rawConnect(server.address()); // a connection still pending
  ASSERT_GE(idle, 0);
  auto second = open(options);
  ASSERT_TRUE(static_cast<bool>(second)) << llvm::toString(second.takeError());
  // The one pipe a session has of its own: its log, which its keeper
  // relays (issue 41), where sessions have namespaces (and so a keeper).
  double own = readFile(log).find("its own user, PID, mount and IPC "
                                  "namespaces") != std::string::npos;
  for (auto *client : {&*first, &*second}) {
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    auto out = (*client)->launch("open_pipes", kObjectA, {}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{own});
  }
  close(idle);
}

TEST_F(SecurityTest, AKernelsOutputIsLoggedEscapedUnderItsSession) {
  // Issue 22: a kernel's stderr appeared in the log as the server's lines.
  startServer();
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("forge", kObjectA, {}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  client->reset();
  EXPECT_TRUE(waitUntil([&] { return server.sessionProcesses().empty(); },
                        std::chrono::seconds(3)));
  server.stop();
  std::string text = readFile(log);
  EXPECT_EQ(text.find("\nexecutor-server: listener: forged"), std::string::npos)
      << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_CONTAINS(text, "): kernel output: executor-server: listener: forged "
                        "on stderr \\x1b[31mred\n");
  EXPECT_CONTAINS(text, "): kernel output: executor-server: listener: forged "
                        "on stdout\n");
}

namespace {
/// Appends what `fd` gives to `text` until `text` holds `until` (true) or
/// `limit` passes (false).
bool readUntil(int fd, std::string &text, const std::string &until,
               std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  char buffer[4096];
  while (until.empty() || text.find(until) == std::string::npos) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0)
      return false;
    ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n <= 0)
      return false;
    text.append(buffer, static_cast<size_t>(n));
  }
  return true;
}
} // namespace

TEST_F(SecurityTest, AKernelCannotTypeIntoTheTerminalTheServerWasStartedFrom) {
  // Issue 41: sessions kept the server's controlling terminal and the log
  // descriptor was a copy of it, so a kernel started from an interactive
  // shell pushed a command into that shell (TIOCSTI) and wrote escape
  // sequences to it. Here the server runs with a pseudo-terminal of the
  // test's as its controlling terminal and its standard streams, as a
  // server started with `&` from a shell has.
  int master = -1, slave = -1;
  ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, nullptr), 0)
      << std::strerror(errno);
  termios raw{};
  ASSERT_EQ(tcgetattr(slave, &raw), 0);
  cfmakeraw(&raw); // what is pushed reaches the slave at once, no line edit
  ASSERT_EQ(tcsetattr(slave, TCSANOW, &raw), 0);
  assetRoot = log + ".assets";
  llvm::sys::fs::create_directories(assetRoot);
  chmod(assetRoot.c_str(), 01777);
  std::string socket = "/tmp/executor-tty-" + std::to_string(getpid()) + ".sock";
  std::string bind = "unix:" + socket;
  pid_t serverPid = fork();
  ASSERT_GE(serverPid, 0);
  if (serverPid == 0) {
    setsid();
    ioctl(slave, TIOCSCTTY, 0);
    for (int fd = 0; fd < 3; ++fd)
      dup2(slave, fd);
    close(slave);
    close(master);
    execl(kServer.c_str(), kServer.c_str(), "--bind", bind.c_str(),
          "--asset-root", assetRoot.c_str(), static_cast<char *>(nullptr));
    _exit(127);
  }
  llvm::scope_exit stopServer([&] {
    kill(serverPid, SIGTERM);
    waitpid(serverPid, nullptr, 0);
    unlink(socket.c_str());
    close(master);
    close(slave);
  });
  std::string screen;
  ASSERT_TRUE(readUntil(master, screen, "listener: isolation: ",
                        std::chrono::seconds(10)))
      << screen;
  auto client = ExecutorClient::open(bind);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("terminal", kObjectA, {}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  std::vector<double> got = (*out)[0].as<double>();
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0], ENXIO) << "a session has a controlling terminal";
  EXPECT_EQ(got[1], 0) << "a session holds a descriptor of the terminal";
  EXPECT_EQ(got[2], 0) << "a kernel pushed input into the terminal";
  EXPECT_EQ(got[3], EPERM) << "TIOCSTI is not refused by the filter";
  EXPECT_EQ(got[4], EPERM) << "TIOCLINUX is not refused by the filter";
  client->reset();
  // What reached the terminal: the title the kernel wrote to its log and
  // output pipes arrives escaped; nothing was typed into the shell's input.
  EXPECT_TRUE(readUntil(master, screen, "\\x1b]0;executor-pwned",
                        std::chrono::seconds(5)))
      << screen;
  readUntil(master, screen, "", std::chrono::milliseconds(300));
  EXPECT_EQ(screen.find('\033'), std::string::npos)
      << "an escape character reached the terminal:\n" << screen;
  std::string typed;
  readUntil(slave, typed, "", std::chrono::milliseconds(300));
  EXPECT_EQ(typed.find("executor-pwned"), std::string::npos) << typed;
}

TEST_F(SecurityTest, TheSyscallFilterRefusesWhatAKernelNeverNeeds) {
  startServer();
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("forbidden", kObjectA, {}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  std::vector<double> got = (*out)[0].as<double>();
  ASSERT_EQ(got.size(), 6u);
  // ptrace, unshare of a user namespace, process_vm_readv, keyctl, bpf.
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(got[i], EPERM) << "call " << i;
  EXPECT_EQ(got[5], 1) << "fork (clone) must still work";
  // Threads still start (clone3 falls back to clone): a second launch runs
  // on the session's pool.
  auto again = (*client)->launch("square", kObjectA, {vec({2})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
}

TEST_F(SecurityTest, TheSyscallFilterAllowsOnlyItsListAndNamesWhatItRefused) {
  // Issue 41: the filter was a deny-list (seccomp_init(SCMP_ACT_ALLOW)), so
  // every call added to the kernel after it was written was allowed. Now
  // it is an allow-list: anything else fails with ENOSYS, and the log names
  // the call and the flag that allows it.
  for (bool allow : {false, true}) {
    SCOPED_TRACE(allow ? "--allow-syscall=ioprio_get" : "the default");
    server.stop();
    startServer(allow ? std::vector<std::string>{"--allow-syscall=ioprio_get"}
                      : std::vector<std::string>{});
    // The isolation line comes after "listening on".
    waitUntil([&] { return readFile(log).find("listener: isolation: ") !=
                           std::string::npos; },
              std::chrono::seconds(5));
    if (readFile(log).find("seccomp allows") == std::string::npos)
      GTEST_SKIP() << "this machine refuses seccomp filters: "
                   << readFile(log);
    auto client = open();
    ASSERT_TRUE(static_cast<bool>(client))
        << llvm::toString(client.takeError());
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    auto out = (*client)->launch("unlisted", kObjectA, {}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    std::vector<double> got = (*out)[0].as<double>();
    ASSERT_EQ(got.size(), 5u);
    EXPECT_EQ(got[0], allow ? 0 : ENOSYS) << "ioprio_get";
    EXPECT_EQ(got[1], EPERM) << "perf_event_open";
    EXPECT_EQ(got[2], EPERM) << "userfaultfd";
    EXPECT_EQ(got[3], EPERM) << "io_uring_setup";
    EXPECT_EQ(got[4], EPERM) << "mount";
    const char *line = "seccomp refused the system call ioprio_get (ENOSYS); "
                       "if the kernel needs it, start executor-server with "
                       "--allow-syscall=ioprio_get";
    if (allow)
      EXPECT_EQ(readFile(log).find(line), std::string::npos);
    else
      EXPECT_TRUE(waitUntil(
          [&] { return readFile(log).find(line) != std::string::npos; },
          std::chrono::seconds(5)))
          << readFile(log);
  }
  EXPECT_CONTAINS(startupError({"--allow-syscall=ioprio_get,nonsense"}),
                  "--allow-syscall: 'nonsense' names no system call of this "
                  "machine");
}

namespace {
/// Whether the server's log says its sessions have namespaces of their own
/// (this machine may refuse them: the tests that need them skip, saying so).
bool namespacesInForce(const std::string &log) {
  // The line comes after "listening on".
  waitUntil([&] { return readFile(log).find("listener: isolation: ") !=
                         std::string::npos; },
            std::chrono::seconds(5));
  return readFile(log).find("its own user, PID, mount and IPC namespaces") !=
         std::string::npos;
}

/// The host's processes named `name` (their comm).
std::vector<pid_t> processesNamed(const std::string &name) {
  std::vector<pid_t> found;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it("/proc", ec), end;
       it != end && !ec; it.increment(ec)) {
    std::string entry = llvm::sys::path::filename(it->path()).str();
    if (entry.empty() || entry.find_first_not_of("0123456789") != std::string::npos)
      continue;
    std::ifstream in(it->path() + "/comm");
    std::string comm;
    if (std::getline(in, comm) && comm == name)
      found.push_back(static_cast<pid_t>(std::stol(entry)));
  }
  return found;
}
} // namespace

TEST_F(SecurityTest, ASessionIsOffTheHostsNetwork) {
  // Issue 41: sessions were on the host's network: a kernel connected to
  // any service on the host's loopback. Now each has a network namespace
  // with only its own loopback; --session-network=host opts out.
  std::string address;
  int listener = bindLoopback(true, address);
  ASSERT_GE(listener, 0);
  llvm::scope_exit closeListener([&] { close(listener); });
  double port = std::stod(address.substr(address.rfind(':') + 1));
  for (bool host : {false, true}) {
    SCOPED_TRACE(host ? "--session-network=host" : "the default");
    server.stop();
    startServer(host ? std::vector<std::string>{"--session-network=host"}
                     : std::vector<std::string>{});
    if (!namespacesInForce(log))
      GTEST_SKIP() << "this machine gives sessions no namespaces";
    EXPECT_CONTAINS(readFile(log),
                    host ? "isolation not in force: a network of their own"
                         : "a network namespace of its own with only its "
                           "loopback");
    auto client = open();
    ASSERT_TRUE(static_cast<bool>(client))
        << llvm::toString(client.takeError());
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    auto out = (*client)->launch("reach_host", kObjectA, {vec({port})},
                                 {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    std::vector<double> got = (*out)[0].as<double>();
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0], host ? 0 : ECONNREFUSED)
        << "a connect to the host's listener at " << address;
    EXPECT_EQ(got[1], EPERM) << "a raw socket was made";
    EXPECT_EQ(got[2], EPERM) << "a netlink socket was made";
  }
}

TEST_F(SecurityTest, AKernelsFloodOfOutputIsRateLimitedInTheLog) {
  // Issue 41: 20 MB of kernel output became 33 MB of log. Now the keeper
  // relays at most 1 MiB at once, then 256 KiB a second, and says how much
  // it dropped.
  startServer();
  if (!namespacesInForce(log))
    GTEST_SKIP() << "this machine gives sessions no namespaces (no keeper)";
  {
    auto client = open();
    ASSERT_TRUE(static_cast<bool>(client))
        << llvm::toString(client.takeError());
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    auto out = (*client)->launch("flood", kObjectA, {vec({10})}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  }
  EXPECT_TRUE(waitUntil(
      [&] {
        return readFile(log).find("bytes of this session's log dropped") !=
               std::string::npos;
      },
      std::chrono::seconds(10)))
      << readFile(log).substr(0, 2000);
  // 20 MiB written (10 to its output, 10 to its log pipe); what reached
  // the log is about the burst and what a few seconds allow.
  EXPECT_LT(readFile(log).size(), 8u << 20);
}

TEST_F(SecurityTest, MemoryNoMappingHoldsAndHostFilesAreBoundToTheSession) {
  // Issue 41: under --max-session-memory 2G a session held 4 GiB of memfd
  // grown with fallocate and 3 GiB of detached SysV segments (pages of no
  // process, which neither RLIMIT_AS nor RLIMIT_DATA counts), and 100 MB it
  // wrote to the host's /run/lock outlived it. Now a memory cgroup counts
  // every page a session makes, its IPC namespace's SysV limits are its
  // memory limit, the host's directories are read-only in it, and
  // RLIMIT_FSIZE bounds the files it writes.
  if (geteuid() != 0)
    GTEST_SKIP() << "memory cgroups and SysV limits need a root server";
  llvm::sys::fs::create_directories("/run/lock");
  chmod("/run/lock", 01777);
  unlink("/run/lock/executor-hoard");
  startServer({"--max-session-memory", "256M"});
  if (!namespacesInForce(log))
    GTEST_SKIP() << "this machine gives sessions no namespaces";
  std::string startup = readFile(log);
  EXPECT_CONTAINS(startup, "SysV shared memory at most 256 MiB");
  EXPECT_CONTAINS(startup, "the host's directories read-only");
  EXPECT_CONTAINS(startup, "files at most 256 MiB each (RLIMIT_FSIZE)");
  bool cgroup = startup.find("every page it makes at most") !=
                std::string::npos;
  if (!cgroup)
    EXPECT_CONTAINS(startup, "isolation not in force: a memory cgroup");
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  // 4 GiB of memfd (more than the session's cgroup allows, a sanitizer
  // build's included) and 1.5 GiB of SysV memory asked, 16 MiB to
  // /run/lock, 320 MiB to its asset directory.
  auto out = (*client)->launch("hoard", kObjectA,
                               {vec({4096, 1536, 16, 320})}, {{1, 8}});
  if (cgroup && !out) {
    // The memory cgroup's OOM killer ended the session, not the host's.
    std::string error = llvm::toString(out.takeError());
    EXPECT_TRUE(waitUntil([&] { return readFile(log).find("signal 9") !=
                                       std::string::npos; },
                          std::chrono::seconds(5)))
        << error << "\n" << readFile(log);
  } else {
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    std::vector<double> got = (*out)[0].as<double>();
    ASSERT_EQ(got.size(), 4u);
    if (cgroup)
      EXPECT_LT(got[0], 4096) << "MiB of memfd outside the session's limit";
    EXPECT_LE(got[1], 256) << "MiB of SysV shared memory";
    EXPECT_EQ(got[2], EROFS) << "a write to the host's /run/lock";
    EXPECT_EQ(got[3], 256) << "MiB written to one file";
  }
  struct stat st{};
  EXPECT_NE(stat("/run/lock/executor-hoard", &st), 0)
      << "a session's file outlived it in the host's /run/lock";
  unlink("/run/lock/executor-hoard");
}

TEST_F(SecurityTest, ASessionCannotSeeReadOverwriteOrKillAnother) {
  // Issue 22: all sessions ran as nobody: session B read session A's asset,
  // overwrote it and SIGKILLed A. Now each has its own user, PID, mount and
  // IPC namespaces: B sees neither A's asset directory nor its /tmp nor its
  // processes, and A's host PID names nothing B can signal.
  startServer();
  if (!namespacesInForce(log))
    GTEST_SKIP() << "this machine gives sessions no namespaces:\n"
                 << readFile(log);
  double mark = getpid();
  auto a = open();
  ASSERT_TRUE(static_cast<bool>(a)) << llvm::toString(a.takeError());
  ASSERT_FALSE(static_cast<bool>((*a)->sendBinary(kObjectA)));
  std::string secret = "the secret of session A";
  ASSERT_FALSE(static_cast<bool>((*a)->storeAsset(
      "secret.txt", llvm::ArrayRef<char>(secret.data(), secret.size()))));
  auto marked = (*a)->launch("mark_tmp", kObjectA, {vec({mark})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(marked)) << llvm::toString(marked.takeError());
  EXPECT_EQ((*marked)[0].as<double>(), std::vector<double>{1});
  int64_t pidA = (*a)->sessionPid();
  ASSERT_GT(pidA, 1);
  EXPECT_FALSE(gone(static_cast<pid_t>(pidA))) << "not a host PID: " << pidA;

  auto b = open();
  ASSERT_TRUE(static_cast<bool>(b)) << llvm::toString(b.takeError());
  ASSERT_FALSE(static_cast<bool>((*b)->sendBinary(kObjectA)));
  auto out = (*b)->launch("trespass", kObjectA, {vec({double(pidA), mark})},
                          {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  std::vector<double> got = (*out)[0].as<double>();
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0], 0) << "B sees other sessions' asset directories";
  EXPECT_EQ(got[1], 0) << "B read A's asset";
  EXPECT_EQ(got[2], 0) << "B overwrote A's asset";
  EXPECT_EQ(got[3], 0) << "B killed A";
  EXPECT_EQ(got[4], 1) << "B sees processes other than its own in /proc";
  EXPECT_EQ(got[5], 0) << "B sees A's /tmp";

  // A lives on, its asset as it sent it.
  EXPECT_FALSE(gone(static_cast<pid_t>(pidA)));
  auto again = (*a)->launch("square", kObjectA, {vec({3})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_EQ((*again)[0].as<double>(), std::vector<double>{9});
  std::string onHost;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(assetRoot, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::filename(it->path()) == "secret.txt")
      onHost = readFile(it->path());
  EXPECT_EQ(onHost, secret);
  // A's /tmp is its own: nothing of it reached the host's.
  EXPECT_FALSE(llvm::sys::fs::exists("/tmp/executor-mark-" +
                                     std::to_string(getpid())));
}

TEST_F(SecurityTest, AProcessAKernelDetachesEndsWithItsSession) {
  // Issue 22: a kernel that forked a detached process left it running
  // (parent PID 1) after its session ended and after SIGTERM or SIGKILL of
  // the server. The session is its PID namespace's init: when it ends,
  // every process left in the namespace ends with it.
  int tag = getpid() % 100000 * 10;
  llvm::scope_exit cleanup([&] {
    for (int i = 0; i < 3; ++i)
      for (pid_t pid : processesNamed("exorphan" + std::to_string(tag + i)))
        ::kill(pid, SIGKILL);
  });
  for (int i = 0; i < 3; ++i) {
    startServer({"--stop-grace", "1s"});
    if (!namespacesInForce(log))
      GTEST_SKIP() << "this machine gives sessions no namespaces:\n"
                   << readFile(log);
    std::string name = "exorphan" + std::to_string(tag + i);
    auto client = open();
    ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    auto out = (*client)->launch("detach", kObjectA, {vec({double(tag + i)})},
                                 {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    EXPECT_EQ((*out)[0].as<double>(), std::vector<double>{1});
    ASSERT_TRUE(waitUntil([&] { return !processesNamed(name).empty(); },
                          std::chrono::seconds(5)))
        << "the detached process does not run";
    const char *how[] = {"the client closed the session",
                         "SIGTERM to the server", "SIGKILL to the server"};
    if (i == 0)
      client->reset();
    else
      ::kill(server.processId(), i == 1 ? SIGTERM : SIGKILL);
    EXPECT_TRUE(waitUntil([&] { return processesNamed(name).empty(); },
                          std::chrono::seconds(10)))
        << "a detached process outlived its session after " << how[i];
    client->reset();
    server.stop();
  }
}

TEST_F(SecurityTest, SharedMemoryCountsAgainstTheSessionsMemory) {
  // Issue 22: mmap(MAP_SHARED | MAP_ANONYMOUS) let a kernel touch 5 GiB
  // under --max-session-memory 2G (RLIMIT_DATA does not count it).
  // RLIMIT_AS does: the mapping fails, and kernels within the limit run.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer build limits no session's address space (its "
                  "shadow memory would count: limitSessionAddressSpace)";
#endif
  for (const char *wire : {"tcp", "unix"}) {
    SCOPED_TRACE(wire);
    ClientOptions options = startServerOver(wire, {"--max-session-memory", "2G"});
    auto client = open(options);
    ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
    auto big = (*client)->launch("shm_hog", kObjectA,
                                 {vec({double(5ull << 30)})}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(big)) << llvm::toString(big.takeError());
    EXPECT_EQ((*big)[0].as<double>(), std::vector<double>{0})
        << "a kernel touched 5 GiB of shared memory under a 2 GiB limit";
    auto small = (*client)->launch("shm_hog", kObjectA,
                                   {vec({double(64 << 20)})}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(small)) << llvm::toString(small.takeError());
    EXPECT_EQ((*small)[0].as<double>(), std::vector<double>{1});
    auto heap = (*client)->launch("hog", kObjectA, {vec({double(256 << 20)})},
                                  {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(heap)) << llvm::toString(heap.takeError());
    EXPECT_EQ((*heap)[0].as<double>(), std::vector<double>{1})
        << "256 MiB of private memory failed under a 2 GiB limit";
    auto square = (*client)->launch("square", kObjectA, {vec({4})}, {{1, 8}});
    ASSERT_TRUE(static_cast<bool>(square)) << llvm::toString(square.takeError());
    EXPECT_EQ((*square)[0].as<double>(), std::vector<double>{16});
    client->reset();
    server.stop();
  }
}

TEST_F(SecurityTest, AForkBombStopsAtTheSessionsProcessLimit) {
  // Issue 22: a session had no process-count limit of its own. Each has
  // --max-session-processes (RLIMIT_NPROC in its user namespace): a fork
  // bomb stops there, and the session and the server go on serving.
  startServer({"--max-session-processes", "48"});
  if (!namespacesInForce(log))
    GTEST_SKIP() << "this machine gives sessions no namespaces:\n"
                 << readFile(log);
  auto client = open();
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("fork_bomb", kObjectA, {vec({500})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  std::vector<double> got = (*out)[0].as<double>();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_GT(got[0], 0);
  EXPECT_LT(got[0], 48) << "the fork bomb was not stopped";
  EXPECT_EQ(got[1], EAGAIN);
  auto again = (*client)->launch("square", kObjectA, {vec({5})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_EQ((*again)[0].as<double>(), std::vector<double>{25});
  auto other = open();
  ASSERT_TRUE(static_cast<bool>(other)) << llvm::toString(other.takeError());
  ASSERT_FALSE(static_cast<bool>((*other)->sendBinary(kObjectA)));
  auto square = (*other)->launch("square", kObjectA, {vec({6})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(square)) << llvm::toString(square.takeError());
  EXPECT_EQ((*square)[0].as<double>(), std::vector<double>{36});
}

TEST_F(SecurityTest, TheServerSaysWhichIsolationIsInForce) {
  startServer();
  server.stop();
  std::string text = readFile(log);
  EXPECT_CONTAINS(text, "listener: isolation: each session a process of its "
                        "own");
  EXPECT_CONTAINS(text, "seccomp allows");
  EXPECT_CONTAINS(text, "address space 16 GiB + 1 GiB beyond its start "
                        "(RLIMIT_AS, counts shared memory)");
  if (geteuid() == 0 && namespacesInForce(log)) {
    // Everything is in force: nothing is said to be missing, and
    // --require-isolation starts.
    EXPECT_CONTAINS(text, "its own user, PID, mount and IPC namespaces (no "
                          "capability; private /tmp, /var/tmp, /dev/shm and "
                          "asset root, /proc; every process of it ends with "
                          "it); at most 1024 processes and threads");
    EXPECT_EQ(text.find("isolation not in force"), std::string::npos) << text;
    startServer({"--require-isolation"});
    auto client = open();
    ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    client->reset();
    server.stop();
  }
  // What is not in force is said, and --require-isolation refuses to start
  // (the memory limit after the namespaces where those are missing too: a
  // server under TSan, whose thread makes unshare(CLONE_NEWUSER) fail).
  std::string refusal =
      startupError({"--require-isolation", "--max-session-memory", "0"});
  EXPECT_CONTAINS(refusal, "--require-isolation: sessions would lack ");
  EXPECT_CONTAINS(refusal, "a memory limit (--max-session-memory 0)");
  if (geteuid() == 0) {
    // A server that is not root: its sessions run as its user.
    std::string dir;
    std::string wrapper = nprocWrapper(4096, dir);
    ASSERT_FALSE(wrapper.empty()) << "cannot copy executor-server to " << dir;
    llvm::scope_exit removeDir(
        [&] { llvm::sys::fs::remove_directories(dir); });
    LocalExecutor refused;
    llvm::Error err = refused.start(wrapper, {"--require-isolation", "--no-token"}, log);
    EXPECT_TRUE(static_cast<bool>(err)) << "the server started";
    llvm::consumeError(std::move(err));
    EXPECT_CONTAINS(readFile(log), "--require-isolation: sessions would lack "
                                   "a user of their own (the server is not "
                                   "root");
  }
}
