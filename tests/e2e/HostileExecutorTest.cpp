//===- HostileExecutorTest.cpp - a lying executor cannot hurt its client --===//
//
// Issue 22, item 1: the client believes nothing it has not checked. Two
// hostile executors, in front of or inside a real executor-server:
//   - RewritingProxy sits between the client and executor-server (TCP or a
//     Unix socket) and rewrites the replies to direct launch calls field by
//     field, or hands the client shared memory that is not what it says;
//   - hostile.o's `lie` kernel writes a result descriptor whose fields the
//     test chooses, which the launch protocols that read results from the
//     executor's memory take as the executor's word: Catalyst's services
//     (executor-server --services=catalyst) over TCP, TLS and a Unix
//     socket, and ORC's generic memory access (llvm-jitlink-executor).
// Every lie ends the session with "executor ADDRESS: malformed reply to
// launch of KERNEL: ..." (MalformedReply) and nothing outside the caller's
// buffers is read or written (the three findings of the issue crashed the
// client or leaked its heap before). executor-server's own launch measures
// the kernel's descriptors itself and refuses to send them.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Errors.h"
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/UnixSocket.h"
#include "ExecutorRuntime/Wire.h"
#include "ExternalExecutor.h"
#include "RunTool.h"
#include "TestFiles.h"

#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <gtest/gtest.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace executor_studio::runtime;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;
const std::string kHostile = HOSTILE_OBJECT;

// The transport's framing (StreamTransport.cpp): a 32-byte header of size
// (header included), opcode, sequence number and tag; a direct call's reply
// and a shared-memory offer have opcodes of their own.
constexpr uint64_t kDirectReplyOpcode = 0x41;
constexpr uint64_t kShareArenaOpcode = 0x42;

// ORC's own opcodes (SimpleRemoteEPCUtils.h).
constexpr uint64_t kSetupOpcode = 0;
constexpr uint64_t kResultOpcode = 2;

struct Frame {
  uint64_t opcode = 0, seq = 0, tag = 0;
  std::string body;
  std::vector<int> fds;
  /// The proxy closes both connections once this frame is out.
  bool dropAfter = false;
  /// The proxy sends only this many bytes of the frame (header included),
  /// then nothing more until it is destroyed.
  size_t stallAfter = SIZE_MAX;
};

/// A relay between one client and an executor that hands every message the
/// executor sends to `rewrite` (which may change it, or queue messages of
/// its own before it in `before`). What comes before ORC (greeting lines)
/// and everything the client sends pass unchanged, descriptors included.
/// A listening Unix socket at `path` (in the test's own temporary
/// folder), or -1.
int listenOnUnixPath(const std::string &path) {
  sockaddr_un addr;
  std::string error;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || !unixSocketAddress(path, addr, error) ||
      bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0 ||
      listen(fd, 8) != 0) {
    if (fd >= 0)
      close(fd);
    return -1;
  }
  return fd;
}

class RewritingProxy {
public:
  using Rewrite = std::function<void(Frame &frame, std::vector<Frame> &before)>;
  RewritingProxy(const std::string &target, bool overUnix, Rewrite rewrite)
      : target(target), rewrite(std::move(rewrite)) {
    if (overUnix) {
      path = ::testing::TempDir() + "/hostile-proxy-" +
             std::to_string(getpid()) + "-" + std::to_string(counter++) +
             ".sock";
      listener = listenOnUnixPath(path);
      address = "unix:" + path;
    } else {
      listener = bindLoopback(/*listen=*/true, address);
    }
    if (listener >= 0)
      thread = std::thread([this] { run(); });
  }
  ~RewritingProxy() {
    stopping = true;
    for (int fd : {client, server})
      if (fd >= 0)
        ::shutdown(fd, SHUT_RDWR);
    if (thread.joinable())
      thread.join();
    for (int fd : {listener, client, server})
      if (fd >= 0)
        ::close(fd);
    if (!path.empty())
      ::unlink(path.c_str());
  }
  std::string address;
  /// How many direct-call replies went through `rewrite`.
  std::atomic<int> directReplies{0};

private:
  void run() {
    pollfd p{listener, POLLIN, 0};
    while (!stopping && ::poll(&p, 1, 50) == 0) {
    }
    if (stopping)
      return;
    client = ::accept(listener, nullptr, nullptr);
    std::string why, targetPath;
    server = isUnixAddress(target, &targetPath)
                 ? connectUnix(targetPath, std::chrono::seconds(5), why)
                 : connectTo(target, std::chrono::seconds(5), why);
    if (client < 0 || server < 0)
      return;
    std::thread up([this] { pumpRaw(client, server); });
    pumpFrames(server, client);
    ::shutdown(client, SHUT_RDWR);
    ::shutdown(server, SHUT_RDWR);
    up.join();
  }
  /// Reads up to `size` bytes and any descriptors passed with them.
  ssize_t receive(int fd, char *into, size_t size, std::vector<int> &fds) {
    return executor_studio::runtime::receiveDescriptors(fd, into, size, 0, 8, fds);
  }
  bool send(int fd, const char *data, size_t size, const std::vector<int> &fds) {
    size_t sent = 0;
    while (sent < size) {
      union {
        cmsghdr align;
        char bytes[CMSG_SPACE(8 * sizeof(int))];
      } control;
      iovec iov{const_cast<char *>(data + sent), size - sent};
      msghdr m{};
      m.msg_iov = &iov;
      m.msg_iovlen = 1;
      if (sent == 0 && !fds.empty()) {
        m.msg_control = control.bytes;
        m.msg_controllen = CMSG_SPACE(fds.size() * sizeof(int));
        cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(fds.size() * sizeof(int));
        std::memcpy(CMSG_DATA(c), fds.data(), fds.size() * sizeof(int));
      }
      ssize_t n = ::sendmsg(fd, &m, MSG_NOSIGNAL);
      if (n <= 0)
        return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  void pumpRaw(int from, int to) {
    std::vector<char> buffer(1 << 16);
    while (true) {
      std::vector<int> fds;
      ssize_t got = receive(from, buffer.data(), buffer.size(), fds);
      if (got <= 0 || !send(to, buffer.data(), static_cast<size_t>(got), fds))
        break;
      for (int fd : fds)
        ::close(fd);
    }
    ::shutdown(to, SHUT_RDWR);
  }
  /// Fills `pending` to `size` bytes.
  bool fill(int from, std::string &pending, size_t size, std::vector<int> &fds) {
    char chunk[1 << 16];
    while (pending.size() < size) {
      ssize_t got = receive(from, chunk, sizeof(chunk), fds);
      if (got <= 0)
        return false;
      pending.append(chunk, static_cast<size_t>(got));
    }
    return true;
  }
  bool sendFrame(int to, const Frame &f) {
    std::string bytes(32, '\0');
    uint64_t header[4] = {32 + f.body.size(), f.opcode, f.seq, f.tag};
    std::memcpy(bytes.data(), header, 32);
    bytes += f.body;
    if (f.stallAfter < bytes.size()) {
      send(to, bytes.data(), f.stallAfter, f.fds);
      while (!stopping)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      return false;
    }
    return send(to, bytes.data(), bytes.size(), f.fds);
  }
  void pumpFrames(int from, int to) {
    std::string pending;
    std::vector<int> fds;
    // Lines before ORC ("EXECUTOR-...\n") pass as they are.
    while (fill(from, pending, 9, fds) && pending.compare(0, 9, "EXECUTOR-") == 0) {
      size_t eol;
      while ((eol = pending.find('\n')) == std::string::npos)
        if (!fill(from, pending, pending.size() + 1, fds))
          return;
      if (!send(to, pending.data(), eol + 1, {}))
        return;
      pending.erase(0, eol + 1);
    }
    while (fill(from, pending, 32, fds)) {
      uint64_t header[4];
      std::memcpy(header, pending.data(), 32);
      if (header[0] < 32 || !fill(from, pending, header[0], fds))
        break;
      Frame f;
      f.opcode = header[1];
      f.seq = header[2];
      f.tag = header[3];
      f.body = pending.substr(32, header[0] - 32);
      pending.erase(0, header[0]);
      f.fds.swap(fds);
      std::vector<Frame> before;
      if ((f.opcode & 0xff) == kDirectReplyOpcode)
        ++directReplies;
      rewrite(f, before);
      bool ok = true;
      for (const Frame &b : before)
        ok = ok && sendFrame(to, b);
      ok = ok && sendFrame(to, f);
      if (f.dropAfter)
        ok = false;
      for (const Frame &b : before)
        for (int fd : b.fds)
          ::close(fd);
      for (int fd : f.fds)
        ::close(fd);
      if (!ok)
        break;
    }
  }

  std::string target, path;
  Rewrite rewrite;
  int listener = -1, client = -1, server = -1;
  std::atomic<bool> stopping{false};
  std::thread thread;
  static inline int counter = 0;
};

template <typename T> void poke(std::string &body, size_t at, T value) {
  ASSERT_LE(at + sizeof(T), body.size());
  std::memcpy(body.data() + at, &value, sizeof(T));
}

HostMemRef vec(std::vector<double> values) {
  return HostMemRef::of<double>({static_cast<int64_t>(values.size())}, values);
}

#define EXPECT_CONTAINS(text, part)                                            \
  EXPECT_NE(std::string(text).find(part), std::string::npos)                   \
      << "'" << (part) << "' not in:\n"                                        \
      << (text)

/// `err` is MalformedReply, says "executor ADDRESS: malformed reply to
/// launch of KERNEL: " and then `detail`.
void expectMalformed(llvm::Error err, const std::string &address,
                     const std::string &kernel, const std::string &detail) {
  ASSERT_TRUE(static_cast<bool>(err)) << "the lie was believed";
  EXPECT_TRUE(err.isA<MalformedReply>());
  EXPECT_TRUE(endsSession(err));
  std::string text = llvm::toString(std::move(err));
  EXPECT_CONTAINS(text, "executor " + address + ": malformed reply to launch of " +
                            kernel + ": ");
  EXPECT_CONTAINS(text, detail);
}

/// The session is over: what follows on it says so.
void expectClosed(ExecutorClient &client) {
  auto after = client.launch("square", kObjectA, {vec({1})}, {{1, 8}});
  ASSERT_FALSE(static_cast<bool>(after));
  llvm::Error err = after.takeError();
  EXPECT_TRUE(endsSession(err)) << llvm::toString(std::move(err));
  llvm::consumeError(std::move(err));
  EXPECT_FALSE(client.isOpen());
}

class HostileExecutorTest : public ::testing::Test {
protected:
  static std::string tempDir() {
    return ::testing::TempDir() + "/hostile-executor-" + std::to_string(getpid());
  }
  static void SetUpTestSuite() {
    llvm::sys::fs::create_directories(tempDir());
    ASSERT_TRUE(executor_test::makeExecutorCerts(tempDir() + "/certs", {"127.0.0.1"}));
  }
  static void TearDownTestSuite() {
    llvm::sys::fs::remove_directories(tempDir());
  }
  void SetUp() override {
    log = tempDir() + "/" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name() +
          ".log";
  }
  /// executor-server over `wire` ("tcp", "tls", "unix") with `args`; the
  /// options a client needs there.
  ClientOptions startServer(const std::string &wire,
                            std::vector<std::string> args = {}) {
    ClientOptions options;
    if (wire == "tls") {
      for (const char *a : {"--tls-cert", "/certs/server.pem", "--tls-key",
                            "/certs/server.key"})
        args.push_back(a[0] == '/' ? tempDir() + a : a);
      options.tlsCA = tempDir() + "/certs/ca.pem";
    }
    // Plain TCP without a token: a client finds a generated one by the port
    // it connects to, which is the proxy's here (SecurityTest covers it).
    if (wire == "tcp")
      args.push_back("--no-token");
    server.useUnixSocket(wire == "unix");
    llvm::Error err = server.start(kServer, args, log);
    EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
    return options;
  }
  std::unique_ptr<ExecutorClient> open(const std::string &address,
                                       ClientOptions options = {},
                                       const std::string &object = kObjectA) {
    auto client = ExecutorClient::open(address, options);
    EXPECT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
    if (!client)
      return nullptr;
    llvm::Error sent = (*client)->sendBinary(object);
    EXPECT_FALSE(static_cast<bool>(sent)) << llvm::toString(std::move(sent));
    return std::move(*client);
  }

  /// square([1, 2, 3, 4]) through a proxy that rewrites its reply with
  /// `rewrite`: the body of the direct reply is, as executor-server sends
  /// it, u64 status @0, u32 rank @8, u32 element size @12, i64 size @16,
  /// u64 data bytes @24, the 32 bytes of data @32.
  void lieAboutSquare(bool overUnix,
                      std::function<void(std::string &body)> rewrite,
                      const std::string &detail) {
    RewritingProxy proxy(server.address(), overUnix,
                         [&](Frame &f, std::vector<Frame> &) {
                           if ((f.opcode & 0xff) != kDirectReplyOpcode)
                             return;
                           uint32_t rank = 0;
                           ASSERT_EQ(f.body.size(), 64u) << "not the layout "
                                                            "this test rewrites";
                           std::memcpy(&rank, f.body.data() + 8, 4);
                           ASSERT_EQ(rank, 1u);
                           rewrite(f.body);
                         });
    auto client = open(proxy.address);
    ASSERT_TRUE(client);
    auto out = client->launch("square", kObjectA, {vec({1, 2, 3, 4})}, {{1, 8}});
    ASSERT_EQ(proxy.directReplies.load(), 1) << "the launch was not a direct call";
    expectMalformed(out.takeError(), proxy.address, "square", detail);
    expectClosed(*client);
  }

  /// Every lie the direct protocol's reply can tell, one field at a time.
  void lieFieldByField(bool overUnix) {
    // Unchanged, the reply goes through.
    {
      RewritingProxy proxy(server.address(), overUnix,
                           [](Frame &, std::vector<Frame> &) {});
      auto client = open(proxy.address);
      ASSERT_TRUE(client);
      auto out = client->launch("square", kObjectA, {vec({1, 2, 3, 4})}, {{1, 8}});
      ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
      EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{1, 4, 9, 16}));
      EXPECT_EQ(proxy.directReplies.load(), 1);
    }
    // Issue 22: rank 0 where rank 1 was expected crashed the client.
    lieAboutSquare(overUnix, [](std::string &b) { poke<uint32_t>(b, 8, 0); },
                   "result 0 has rank 0 and 8-byte elements, not the rank 1 "
                   "and 8-byte elements asked for");
    lieAboutSquare(overUnix, [](std::string &b) { poke<uint32_t>(b, 12, 4); },
                   "4-byte elements");
    // Issue 22: a shape that disagrees with the bytes (2048 elements read
    // from a 32-byte buffer).
    lieAboutSquare(overUnix, [](std::string &b) { poke<int64_t>(b, 16, 2048); },
                   "result 0 has 32 bytes of data, not what its shape needs");
    lieAboutSquare(overUnix,
                   [](std::string &b) {
                     poke<int64_t>(b, 16, (int64_t(1) << 61) + 2);
                   },
                   "not what its shape needs");
    lieAboutSquare(overUnix, [](std::string &b) { poke<int64_t>(b, 16, -4); },
                   "not what its shape needs");
    lieAboutSquare(overUnix, [](std::string &b) { poke<uint64_t>(b, 24, 16384); },
                   "result 0's data lies outside the reply and the shared memory");
    lieAboutSquare(overUnix,
                   [](std::string &b) {
                     poke<uint64_t>(b, 24, kSharedData | 32);
                     poke<uint64_t>(b, 32, uint64_t(1) << 40);
                   },
                   "result 0's data lies outside the reply and the shared memory");
    lieAboutSquare(overUnix, [](std::string &b) { b.resize(20); },
                   "result 0's shape is cut short");
    lieAboutSquare(overUnix, [](std::string &b) { b.append(8, '\0'); },
                   "8 bytes follow the last result");
  }

  LocalExecutor server;
  std::string log;
};
} // namespace

TEST_F(HostileExecutorTest, DirectLaunchRepliesAreCheckedOverTcp) {
  startServer("tcp");
  lieFieldByField(/*overUnix=*/false);
}

TEST_F(HostileExecutorTest, DirectLaunchRepliesAreCheckedOverAUnixSocket) {
  startServer("unix");
  lieFieldByField(/*overUnix=*/true);
}

// Issue 22: shared memory announced as 16 GiB (or 64 TiB) but 0 bytes long
// was mapped without fstat, and reading the result raised SIGBUS. Now the
// offer itself is refused, before anything is mapped.
TEST_F(HostileExecutorTest, SharedMemoryIsMeasuredAndSealedBeforeUse) {
  startServer("unix");
  struct Lie {
    uint64_t announced;
    bool seal;
    std::string detail;
  };
  std::vector<Lie> lies = {
      {uint64_t(16) << 30, true,
       "shared memory is not a sealed memfd of the 17179869184 bytes it said"},
      {uint64_t(64) << 40, true,
       "shared memory is not a sealed memfd of the 70368744177664 bytes it "
       "said"},
      {4096, false, "shared memory is not a sealed memfd of the 4096 bytes"}};
  for (const Lie &lie : lies) {
    SCOPED_TRACE(lie.detail);
    RewritingProxy proxy(
        server.address(), /*overUnix=*/true,
        [&](Frame &f, std::vector<Frame> &before) {
          if ((f.opcode & 0xff) != kDirectReplyOpcode)
            return;
          // An offer of shared memory before the reply: an empty file.
          Frame offer;
          offer.opcode = kShareArenaOpcode;
          offer.body.assign(8, '\0');
          std::memcpy(offer.body.data(), &lie.announced, 8);
          int fd = memfd_create("hostile", MFD_CLOEXEC | MFD_ALLOW_SEALING);
          if (lie.seal)
            fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
          else
            EXPECT_EQ(ftruncate(fd, 4096), 0);
          offer.fds.push_back(fd);
          before.push_back(std::move(offer));
        });
    auto client = open(proxy.address);
    ASSERT_TRUE(client);
    auto out = client->launch("square", kObjectA, {vec({1, 2, 3, 4})}, {{1, 8}});
    expectMalformed(out.takeError(), proxy.address, "square", lie.detail);
    expectClosed(*client);
  }
}

// Found by fuzz-direct-call and fuzz-shared-memory (issue 27): a reply whose
// sequence number was the pending-call map's empty key (~0) found that empty
// slot and wrote through its uninitialised pointer. A reply names a call
// this side made, or it ends the session.
TEST_F(HostileExecutorTest, AReplyToACallNeverMadeEndsTheSession) {
  startServer("tcp");
  for (uint64_t seq : {~uint64_t(0), ~uint64_t(0) - 1, uint64_t(0),
                       uint64_t(1) << 40}) {
    SCOPED_TRACE(seq);
    RewritingProxy proxy(server.address(), /*overUnix=*/false,
                         [&](Frame &f, std::vector<Frame> &) {
                           if ((f.opcode & 0xff) == kDirectReplyOpcode)
                             f.seq = seq;
                         });
    auto client = open(proxy.address);
    ASSERT_TRUE(client);
    auto out = client->launch("square", kObjectA, {vec({1, 2, 3, 4})}, {{1, 8}});
    expectMalformed(out.takeError(), proxy.address, "square",
                    "a reply to call " + std::to_string(seq) +
                        ", which was never made");
    expectClosed(*client);
  }
}

// The C ABI's path (launchDescriptorsAt): the caller's result descriptor is
// not touched by a reply that lies.
TEST_F(HostileExecutorTest, ALyingReplyLeavesTheCallersDescriptorsAlone) {
  startServer("tcp");
  RewritingProxy proxy(server.address(), false,
                       [](Frame &f, std::vector<Frame> &) {
                         if ((f.opcode & 0xff) == kDirectReplyOpcode &&
                             f.body.size() == 64)
                           poke<uint32_t>(f.body, 8, 0);
                       });
  auto client = open(proxy.address);
  ASSERT_TRUE(client);
  double in[4] = {1, 2, 3, 4};
  int64_t inWords[5] = {int64_t(in), int64_t(in), 0, 4, 1};
  int64_t outWords[5] = {7, 7, 7, 7, 7};
  DescriptorView input{inWords, 1}, output{outWords, 1};
  llvm::Error err = client->launchDescriptors("square", kObjectA, {input}, {8},
                                              {output}, {8});
  expectMalformed(std::move(err), proxy.address, "square", "rank 0");
  for (int64_t w : outWords)
    EXPECT_EQ(w, 7);
}

namespace {
/// lie(0, fields) on `client`: the result descriptor `lie` writes has
/// {aligned = four doubles 1..4 + fields[0] bytes, offset, size, stride}.
llvm::Expected<std::vector<HostMemRef>> lie(ExecutorClient &client,
                                            std::vector<int64_t> fields) {
  HostMemRef scalar = HostMemRef::of<int64_t>({}, {0});
  scalar.scalar = true;
  return client.launch("lie", kHostile,
                       {scalar, HostMemRef::of<int64_t>({4}, fields)}, {{1, 8}});
}

/// The lies a result descriptor can tell, and what the client says.
struct DescriptorLie {
  std::vector<int64_t> fields;
  std::string detail;
};
const std::vector<DescriptorLie> &descriptorLies() {
  static const std::vector<DescriptorLie> lies = {
      // Issue 22: (2^61+2) * 8 bytes is 16 mod 2^64; with stride 0 the client
      // allocated 16 bytes and wrote 2^61+2 elements into them.
      {{0, 0, (int64_t(1) << 61) + 2, 0},
       "its 2305843009213693954 elements of 8 bytes at offset 0 overflow the "
       "address space"},
      {{0, 0, 1000, 0}, "its 1000 elements overlap (its strides reach only 1)"},
      {{0, 0, -4, 1}, "dimension 0 has size -4"},
      {{0, 0, 4, -1}, "dimension 0 has stride -1"},
      {{0, -2, 4, 1}, "its offset is -2"},
      {{0, int64_t(1) << 62, 4, 1},
       "its 4 elements of 8 bytes at offset 4611686018427387904 overflow the "
       "address space"},
      {{0, 0, int64_t(1) << 62, int64_t(1) << 62},
       "dimension 0 of size 4611686018427387904 and stride "
       "4611686018427387904 overflows the element count"},
  };
  return lies;
}

/// Each lie in a session of its own from `open`, then the truth.
void lieAboutDescriptors(
    const std::function<std::unique_ptr<ExecutorClient>()> &open) {
  for (const DescriptorLie &l : descriptorLies()) {
    SCOPED_TRACE(l.detail);
    auto client = open();
    ASSERT_TRUE(client);
    auto out = lie(*client, l.fields);
    expectMalformed(out.takeError(), client->address(), "lie",
                    "result 0 (rank 1, 8-byte elements): " + l.detail);
    EXPECT_FALSE(client->isOpen());
  }
  auto client = open();
  ASSERT_TRUE(client);
  auto out = lie(*client, {8, 1, 2, 1});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{3, 4}));
}

/// On executor-server's one-trip launch the executor measures the kernel's
/// descriptors: each lie is refused with the kernel's name and what is
/// wrong, and the session goes on.
void serverRefusesLies(ExecutorClient &client) {
  for (const DescriptorLie &l : descriptorLies()) {
    SCOPED_TRACE(l.detail);
    auto out = lie(client, l.fields);
    ASSERT_FALSE(static_cast<bool>(out));
    llvm::Error err = out.takeError();
    EXPECT_TRUE(err.isA<Refused>());
    std::string text = llvm::toString(std::move(err));
    EXPECT_CONTAINS(text, "launch of lie failed: kernel lie returned a "
                          "malformed result 0: " + l.detail);
    EXPECT_TRUE(client.isOpen());
  }
  auto out = lie(client, {8, 1, 2, 1});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{3, 4}));
}
} // namespace

// executor-server's one-trip launch (scalars included), over each transport.
TEST_F(HostileExecutorTest, ExecutorServerRefusesAKernelsLyingResults) {
  for (const char *wire : {"tcp", "tls", "unix"}) {
    SCOPED_TRACE(wire);
    ClientOptions options = startServer(wire);
    auto client = open(server.address(), options, kHostile);
    ASSERT_TRUE(client);
    serverRefusesLies(*client);
    server.stop();
  }
}

// Catalyst's services (catalyst_remote_*), as catalyst-executor publishes
// them, over each transport.
TEST_F(HostileExecutorTest, ResultDescriptorsAreCheckedWithCatalystsServices) {
  for (const char *wire : {"tcp", "tls", "unix"}) {
    SCOPED_TRACE(wire);
    ClientOptions options = startServer(wire, {"--services=catalyst"});
    lieAboutDescriptors([&] {
      auto client = open(server.address(), options, kHostile);
      EXPECT_TRUE(client &&
                  client->executorKind() == ExecutorKind::CatalystExecutor);
      return client;
    });
    server.stop();
  }
}

// ORC's generic memory access: LLVM's stock llvm-jitlink-executor (one
// session each).
TEST_F(HostileExecutorTest, ResultDescriptorsAreCheckedOnAnOrcExecutor) {
  std::vector<std::unique_ptr<executor_test::JitlinkExecutor>> executors;
  lieAboutDescriptors([&]() -> std::unique_ptr<ExecutorClient> {
    executors.push_back(std::make_unique<executor_test::JitlinkExecutor>());
    if (!executors.back()->start())
      return nullptr;
    auto client = open(executors.back()->address, {}, kHostile);
    EXPECT_TRUE(client && client->executorKind() == ExecutorKind::OrcExecutor);
    return client;
  });
}

// Scalars travel in the one-trip launch too (kScalarRank): a reply that
// turns a scalar result into a memref is refused.
TEST_F(HostileExecutorTest, AScalarResultIsWhatWasAskedFor) {
  startServer("tcp");
  // scaled(a, x, n) -> (memref<3xf64>, f64, i32): result 1's rank word is
  // at 56 (8 status, 24 for result 0's metadata and padding, 24 of data).
  RewritingProxy proxy(server.address(), false,
                       [](Frame &f, std::vector<Frame> &) {
                         if ((f.opcode & 0xff) != kDirectReplyOpcode)
                           return;
                         uint32_t rank = 0;
                         ASSERT_GE(f.body.size(), 60u);
                         std::memcpy(&rank, f.body.data() + 56, 4);
                         ASSERT_EQ(rank, kScalarRank);
                         poke<uint32_t>(f.body, 56, 0);
                       });
  auto client = open(proxy.address);
  ASSERT_TRUE(client);
  HostMemRef a = HostMemRef::of<double>({}, {2});
  a.scalar = true;
  HostMemRef n = HostMemRef::of<int32_t>({}, {10});
  n.scalar = true;
  auto out = client->launch("scaled", kObjectA, {a, vec({1, 2, 3}), n},
                            {{1, 8}, {0, 8, true}, {0, 4, true}});
  ASSERT_EQ(proxy.directReplies.load(), 1) << "scalars did not go in one trip";
  expectMalformed(out.takeError(), proxy.address, "scaled",
                  "result 1 has rank 0 and 8-byte elements, not a scalar of 8 "
                  "bytes asked for");
}

// Issue 41, item 3: the client survives any executor, in ORC's own messages
// too. A proxy in front of executor-server tells one lie in ORC's protocol,
// on the first result after it is armed: during open (armed from the start:
// the first result after Setup) or during send_binary (armed once the
// session is open). Each lie crashed the client or hung it before, inside
// LLVM's handling of the message; now the transport checks every ORC message
// first and the session ends with an error that names the executor.
namespace {
using OrcLie =
    std::function<void(Frame &result, const Frame &setup, std::vector<Frame> &before)>;

struct OrcLieOutcome {
  llvm::Error err = llvm::Error::success();
  bool told = false;
  std::string address;
  std::chrono::milliseconds took{0};
};

/// Opens a session through the proxy and sends kernels_a.o; the first error
/// of the two, the proxy's address and how long they took.
OrcLieOutcome lieInOrc(const std::string &target, const std::string &during,
                       const OrcLie &lie, ClientOptions options = {},
                       int nth = 1, const std::string &object = kObjectA) {
  std::atomic<bool> armed{during == "open"}, told{false};
  std::atomic<int> results{0};
  std::mutex setupMutex;
  Frame setup;
  RewritingProxy proxy(target, /*overUnix=*/false,
                       [&](Frame &f, std::vector<Frame> &before) {
                         if (f.opcode == kSetupOpcode) {
                           std::lock_guard<std::mutex> lock(setupMutex);
                           setup = f;
                           setup.fds.clear();
                           return;
                         }
                         if (f.opcode != kResultOpcode || !armed ||
                             ++results != nth || told.exchange(true))
                           return;
                         std::lock_guard<std::mutex> lock(setupMutex);
                         lie(f, setup, before);
                       });
  OrcLieOutcome outcome;
  outcome.address = proxy.address;
  auto start = std::chrono::steady_clock::now();
  outcome.err = [&]() -> llvm::Error {
    auto client = ExecutorClient::open(proxy.address, options);
    if (!client)
      return client.takeError();
    armed = true;
    llvm::Error sent = (*client)->sendBinary(object);
    if (sent) {
      EXPECT_FALSE((*client)->isOpen());
      return sent;
    }
    return llvm::Error::success();
  }();
  outcome.took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  outcome.told = told;
  if (nth == 1)
    EXPECT_TRUE(outcome.told) << "no ORC result came to lie about";
  return outcome;
}

/// The lie ended the session with an error that names the executor and says
/// `detail`.
void expectOrcLieRefused(OrcLieOutcome outcome, const std::string &detail) {
  ASSERT_TRUE(static_cast<bool>(outcome.err)) << "the lie was believed";
  bool ends = endsSession(outcome.err);
  std::string text = llvm::toString(std::move(outcome.err));
  EXPECT_TRUE(ends) << text;
  EXPECT_CONTAINS(text, "executor " + outcome.address + ": ");
  EXPECT_CONTAINS(text, detail);
}
} // namespace

// A second Setup mid-session reached SimpleRemoteEPC::handleSetup, which took
// the handler of call 0 that was no longer there (SIGSEGV).
TEST_F(HostileExecutorTest, ASecondSetupMessageEndsTheSession) {
  startServer("tcp");
  for (const char *during : {"open", "send_binary"}) {
    SCOPED_TRACE(during);
    auto outcome = lieInOrc(server.address(), during,
                            [](Frame &, const Frame &setup,
                               std::vector<Frame> &before) {
                              ASSERT_FALSE(setup.body.empty());
                              before.push_back(setup);
                            });
    expectOrcLieRefused(std::move(outcome), "a second Setup message");
  }
}

// A call from the executor into the client (ORC's JIT dispatch): during open
// ORC handed it to an ExecutionSession that did not exist yet (SIGSEGV in
// runJITDispatchHandler; fuzz-orc-client found it). The client serves no
// calls: any such message ends the session.
TEST_F(HostileExecutorTest, ACallFromTheExecutorEndsTheSession) {
  startServer("tcp");
  for (const char *during : {"open", "send_binary"}) {
    SCOPED_TRACE(during);
    auto outcome = lieInOrc(server.address(), during,
                            [](Frame &, const Frame &,
                               std::vector<Frame> &before) {
                              Frame call;
                              call.opcode = 3; // CallWrapper
                              call.seq = 1;
                              call.tag = 0x1000;
                              call.body.assign(8, '\0');
                              before.push_back(call);
                            });
    expectOrcLieRefused(std::move(outcome),
                        "a call from the executor to function 0x1000, and "
                        "this client serves no calls");
  }
}

// A result whose SPS error string says 2^62 bytes: ORC reserved them
// (uncaught std::bad_alloc, the client aborted).
TEST_F(HostileExecutorTest, AnOrcResultsLengthBeyondItsBytesEndsTheSession) {
  startServer("tcp");
  for (const char *during : {"open", "send_binary"}) {
    SCOPED_TRACE(during);
    auto outcome = lieInOrc(server.address(), during,
                            [](Frame &f, const Frame &, std::vector<Frame> &) {
                              // An Expected or Error that failed, with a
                              // message of 2^62 bytes.
                              f.body.assign(1, '\0');
                              uint64_t length = uint64_t(1) << 62;
                              f.body.append(reinterpret_cast<char *>(&length), 8);
                              f.body.append("lie");
                            });
    expectOrcLieRefused(std::move(outcome),
                        "a length of 4611686018427387904 where 3 bytes are "
                        "left");
  }
}

// The connection dropped right after the first result: during send_binary
// the failed link reached ELFDebugObjectPlugin::notifyFailed (SIGSEGV), as a
// real executor dying there does.
TEST_F(HostileExecutorTest, AConnectionDroppedAfterAResultEndsTheSession) {
  startServer("tcp");
  for (const char *during : {"open", "send_binary"}) {
    SCOPED_TRACE(during);
    auto outcome =
        lieInOrc(server.address(), during,
                 [](Frame &f, const Frame &, std::vector<Frame> &) {
                   f.dropAfter = true;
                 });
    expectOrcLieRefused(std::move(outcome), "lost the session during ");
  }
}

// A result to a call never made (its sequence number moved on): the same
// crash as a dropped connection, by ORC's own "No call for sequence number".
TEST_F(HostileExecutorTest, AResultToACallNeverMadeEndsTheSession) {
  startServer("tcp");
  for (const char *during : {"open", "send_binary"}) {
    SCOPED_TRACE(during);
    auto outcome =
        lieInOrc(server.address(), during,
                 [](Frame &f, const Frame &, std::vector<Frame> &) {
                   f.seq += 1000;
                 });
    expectOrcLieRefused(std::move(outcome), ", which this side did not make");
  }
}

// An executor that stops in the middle of a result: the client waited for
// the rest for ever (the peer's TCP still acknowledges, so the liveness
// time-out of the socket never fires, and ORC's own waits have no limit).
// Now the rest must come within the liveness time-out.
TEST_F(HostileExecutorTest, AnExecutorStalledInTheMiddleOfAResultTimesOut) {
  startServer("tcp");
  ClientOptions options;
  options.livenessTimeout = std::chrono::seconds(1);
  for (const char *during : {"open", "send_binary"}) {
    SCOPED_TRACE(during);
    auto outcome =
        lieInOrc(server.address(), during,
                 [](Frame &f, const Frame &, std::vector<Frame> &) {
                   f.stallAfter = 32 + f.body.size() / 2;
                 },
                 options);
    EXPECT_LT(outcome.took.count(), 10000);
    expectOrcLieRefused(std::move(outcome),
                        "stopped in the middle of a message: no more of it "
                        "within 1000 ms (the liveness time-out, "
                        "EXECUTOR_LIVENESS_TIMEOUT)");
  }
}

// An executor that never starts its reply to a call of ORC's own services
// (a lookup or memory call of open or send_binary) blocked the client for
// ever: no message had begun, so no stall was seen. Such a call now waits no
// longer than the liveness time-out.
TEST_F(HostileExecutorTest, AnExecutorThatNeverAnswersOrcsCallTimesOut) {
  startServer("tcp");
  ClientOptions options;
  options.livenessTimeout = std::chrono::seconds(1);
  for (const char *during : {"open", "send_binary"}) {
    SCOPED_TRACE(during);
    auto outcome =
        lieInOrc(server.address(), during,
                 [](Frame &f, const Frame &, std::vector<Frame> &) {
                   f.stallAfter = 0;
                 },
                 options);
    EXPECT_LT(outcome.took.count(), 10000);
    expectOrcLieRefused(std::move(outcome),
                        "the executor did not answer a call of ORC's within "
                        "1000 ms (the liveness time-out, "
                        "EXECUTOR_LIVENESS_TIMEOUT)");
  }
}

// A real executor that dies during send_binary, after any of the results the
// link waits for, with and without debug info in the object (whose link the
// debug-object plugin takes part in): the session ends with an error, never
// in the plugin's failure path (ELFDebugObjectPlugin::notifyFailed).
TEST_F(HostileExecutorTest, AnExecutorLostAnywhereInSendBinaryEndsTheSession) {
  startServer("tcp");
  std::map<std::string, int> results;
  for (const std::string &object : {kObjectA, std::string(KERNELS_A_DEBUG_OBJECT)}) {
    int &told = results[object];
    for (int nth = 1; nth <= 40; ++nth) {
      SCOPED_TRACE(object + ", lost after result " + std::to_string(nth));
      auto outcome =
          lieInOrc(server.address(), "send_binary",
                   [](Frame &f, const Frame &, std::vector<Frame> &) {
                     f.dropAfter = true;
                   },
                   {}, nth, object);
      if (!outcome.told) {
        // Fewer results than that: the object went whole.
        EXPECT_FALSE(static_cast<bool>(outcome.err));
        llvm::consumeError(std::move(outcome.err));
        break;
      }
      ++told;
      // The last result may complete the link before the loss is seen.
      if (outcome.err)
        expectOrcLieRefused(std::move(outcome), "lost the session during ");
    }
    EXPECT_GE(told, 2) << object;
  }
  // The debug object's own memory (reserved, then finalized) is waited for
  // too: the loss comes during those waits as well.
  EXPECT_GT(results[KERNELS_A_DEBUG_OBJECT], results[kObjectA]);
}

// executor-compile --target-of on an executor whose setup message names a
// triple this LLVM has no back end for (the proxy rewrites the triple in
// ORC's Setup message to csky, same length): the error names the triple and
// the back ends there are, and nothing is compiled.
TEST_F(HostileExecutorTest, TargetOfAnExecutorOfATripleWithoutABackEndSaysSo) {
  startServer("tcp");
  std::string host = llvm::sys::getProcessTriple();
  std::string csky = "csky-" + std::string(host.size() - 5, 'x');
  csky.replace(csky.size() - 10, 10, "-linux-gnu");
  ASSERT_EQ(llvm::Triple(csky).getArch(), llvm::Triple::csky) << csky;
  std::atomic<bool> rewrote{false};
  RewritingProxy proxy(server.address(), /*overUnix=*/false,
                       [&](Frame &f, std::vector<Frame> &) {
                         size_t at = f.opcode == kSetupOpcode
                                         ? f.body.find(host)
                                         : std::string::npos;
                         if (at == std::string::npos)
                           return;
                         f.body.replace(at, host.size(), csky);
                         rewrote = true;
                       });
  std::string out = tempDir() + "/target-of-csky", said = out + ".err";
  executor_studio::Subprocess compile;
  executor_studio::SubprocessOptions options;
  options.err = executor_studio::Redirect::file(said);
  ASSERT_FALSE(static_cast<bool>(compile.start(
      {EXECUTOR_COMPILE_PATH, "--target-of=" + proxy.address,
       SAMPLES_DIR "/cross-compile-dispatch.mlir", "-o", out},
      options)));
  ASSERT_TRUE(compile.waitFor(std::chrono::seconds(60)));
  EXPECT_EQ(compile.exitCode(), 1);
  std::string message = executor_test::readFile(said);
  EXPECT_CONTAINS(message, "executor-compile: error: --target-of=" +
                               proxy.address + ": the executor runs " + csky +
                               ", and this executor-compile cannot compile "
                               "for " + csky + ": its LLVM generates code for ");
  EXPECT_CONTAINS(message, "x86-64");
  EXPECT_CONTAINS(message, "aarch64");
  EXPECT_TRUE(rewrote) << "no Setup message named " << host;
  EXPECT_FALSE(llvm::sys::fs::exists(out));
  EXPECT_FALSE(llvm::sys::fs::exists(out + ".workspace/compute/compute.o"));
}
