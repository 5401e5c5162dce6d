//===- RuntimeBench.cpp - launch latency, bandwidth and memory ------------===//
//
//   executor-runtime-bench [--json FILE] [--iterations N]
//
// Starts a real executor-server on loopback and measures, in one run:
//   1. raw TCP ping-pong of a 64-byte message (the floor) vs a launch of a
//      kernel with one memref<4xf64> in and one out, vs the same launch the
//      multi-round-trip way (allocate, write, invoke, read back, free);
//   2. raw loopback TCP bandwidth vs a 64 MiB memref in and out;
//   3. the session process's resident memory before and after 10,000 launches;
//   5. TLS beside plaintext on loopback: launch latency and 64 MiB in and out
//      (goal: TLS <= 1.3x plaintext latency);
//   4. the launch latency on each kind of executor ExecutorClient talks to:
//      executor-server, executor-server with only Catalyst's services (what
//      the client does with catalyst-executor) and LLVM's stock
//      llvm-jitlink-executor.
// Prints every figure with its reference and the ratio; --json writes them.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "ExecutorRuntime/Socket.h"

#include "llvm/ExecutionEngine/Orc/ExecutorProcessControl.h"
#include "llvm/ExecutionEngine/Orc/MemoryAccess.h"

#include <algorithm>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace executor_runtime;
using Clock = std::chrono::steady_clock;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObject = KERNELS_A_OBJECT;
const std::string kJitlinkExecutor = LLVM_JITLINK_EXECUTOR_PATH;

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "executor-runtime-bench: %s\n", message.c_str());
  std::exit(1);
}

template <typename T> T check(llvm::Expected<T> value, const char *what) {
  if (!value)
    fail(std::string(what) + ": " + llvm::toString(value.takeError()));
  return std::move(*value);
}
void check(llvm::Error err, const char *what) {
  if (err)
    fail(std::string(what) + ": " + llvm::toString(std::move(err)));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Forks a loopback TCP peer: it echoes `echoBytes`-byte messages, or, with
/// echoBytes == 0, reads and discards a stream. Returns the connected fd.
int startPeer(size_t echoBytes, pid_t &child) {
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof(addr));
  listen(listener, 1);
  socklen_t len = sizeof(addr);
  getsockname(listener, reinterpret_cast<sockaddr *>(&addr), &len);
  child = fork();
  if (child == 0) {
    int fd = accept(listener, nullptr, nullptr);
    tuneSocket(fd);
    std::vector<char> buffer(echoBytes ? echoBytes : (1 << 20));
    while (true) {
      if (echoBytes) {
        size_t got = 0;
        while (got < echoBytes) {
          ssize_t n = read(fd, buffer.data() + got, echoBytes - got);
          if (n <= 0)
            _exit(0);
          got += n;
        }
        if (!writeAll(fd, buffer.data(), echoBytes))
          _exit(0);
      } else {
        ssize_t n = read(fd, buffer.data(), buffer.size());
        if (n <= 0) {
          char ack = 1;
          (void)!write(fd, &ack, 1);
          _exit(0);
        }
        if (n == 1 && buffer[0] == 'E') { // end of stream marker
          char ack = 1;
          (void)!write(fd, &ack, 1);
        }
      }
    }
  }
  close(listener);
  std::string error;
  int fd = connectTo("127.0.0.1:" + std::to_string(ntohs(addr.sin_port)),
                     std::chrono::seconds(5), error);
  if (fd < 0)
    fail(error);
  return fd;
}

double pingPongMicros(int iterations) {
  pid_t child;
  int fd = startPeer(64, child);
  char message[64] = {1};
  std::vector<double> samples;
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    writeAll(fd, message, sizeof(message));
    size_t got = 0;
    while (got < sizeof(message))
      got += read(fd, message + got, sizeof(message) - got);
    samples.push_back(
        std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  close(fd);
  waitpid(child, nullptr, 0);
  return median(samples);
}

double rawBandwidthMBps(size_t bytes) {
  pid_t child;
  int fd = startPeer(0, child);
  std::vector<char> chunk(1 << 20, 7);
  auto start = Clock::now();
  for (size_t sent = 0; sent < bytes; sent += chunk.size())
    writeAll(fd, chunk.data(), chunk.size());
  shutdown(fd, SHUT_WR);
  char ack;
  (void)!read(fd, &ack, 1);
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  close(fd);
  waitpid(child, nullptr, 0);
  return bytes / seconds / 1e6;
}

long residentKiB(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  long value = -1;
  while (in >> key) {
    if (key == "VmRSS:") {
      in >> value;
      break;
    }
    std::getline(in, key);
  }
  return value;
}

/// One launch of `k` the way a runtime without a one-trip launch does it:
/// allocate, write, invoke, read back, free (seven round trips).
void launchMultiRoundTrip(ExecutorClient &client, uint64_t pyface,
                          uint64_t allocFn, uint64_t freeFn, uint64_t invokeFn,
                          const std::vector<double> &input,
                          std::vector<double> &output) {
  using namespace llvm::orc;
  auto &epc = client.processControl();
  // The calls wait the way launches do (ExecutorClient::callAddress), so
  // the comparison is of round trips, not of waiting strategies.
  auto call = [&](uint64_t fn, std::vector<uint64_t> words) {
    auto reply = check(
        client.callAddress(fn, llvm::ArrayRef<char>(
                                   reinterpret_cast<const char *>(words.data()),
                                   words.size() * 8)),
        "executor primitive");
    uint64_t status = kReplyError, result = 0;
    if (reply.size() >= 8)
      std::memcpy(&status, reply.data(), 8);
    if (status != kReplyOk)
      fail("executor primitive failed");
    if (reply.size() >= 16)
      std::memcpy(&result, reply.data() + 8, 8);
    return result;
  };
  // Block: data (32) | input descriptor (40) | args (8) | result descriptor (40)
  const uint64_t dataBytes = input.size() * 8, block = dataBytes + 40 + 8 + 40;
  uint64_t base = call(allocFn, {block});
  std::vector<char> image(block);
  int64_t desc[5] = {static_cast<int64_t>(base), static_cast<int64_t>(base), 0,
                     static_cast<int64_t>(input.size()), 1};
  uint64_t descAddr = base + dataBytes, argsAddr = descAddr + 40,
           resultAddr = argsAddr + 8;
  std::memcpy(image.data(), input.data(), dataBytes);
  std::memcpy(image.data() + dataBytes, desc, 40);
  std::memcpy(image.data() + dataBytes + 40, &descAddr, 8);
  check(epc.getMemoryAccess().writeBuffers(
            {tpctypes::BufferWrite(ExecutorAddr(base), image)}),
        "write");
  call(invokeFn, {pyface, resultAddr, argsAddr});
  auto result = check(epc.getMemoryAccess().readBuffers(
                          {ExecutorAddrRange(ExecutorAddr(resultAddr), 40)}),
                      "read descriptor");
  int64_t out[5];
  std::memcpy(out, result[0].data(), 40);
  auto data = check(
      epc.getMemoryAccess().readBuffers({ExecutorAddrRange(
          ExecutorAddr(static_cast<uint64_t>(out[1]) + out[2] * 8), out[3] * 8)}),
      "read data");
  output.resize(out[3]);
  std::memcpy(output.data(), data[0].data(), out[3] * 8);
  call(freeFn, {static_cast<uint64_t>(out[0])});
  call(freeFn, {base});
}
} // namespace

/// The median latency of a memref<4xf64> launch on a new session at
/// `address`; `kind` gets the kind the client negotiated.
double kindLatency(const std::string &address, int iterations,
                   ExecutorKind &kind) {
  auto client = check(ExecutorClient::open(address), "open");
  kind = client->executorKind();
  check(client->sendBinary(kObject), "send_binary");
  std::vector<HostMemRef> in = {HostMemRef::of<double>({4}, {1, 2, 3, 4})};
  std::vector<double> samples;
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    auto out = check(client->launch("k", kObject, in, {{1, 8}}), "launch");
    samples.push_back(
        std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (out[0].as<double>()[3] != 8)
      fail("wrong launch result");
  }
  check(client->close(), "close");
  return median(samples);
}

/// `llvm-jitlink-executor listen=127.0.0.1:PORT` on a free port, once it
/// listens (it serves one session).
pid_t startJitlinkExecutor(std::string &address) {
  int fd = bindLoopback(false, address);
  if (fd < 0)
    fail("no free port");
  close(fd);
  unsigned port = std::stoul(address.substr(address.rfind(':') + 1));
  pid_t pid = fork();
  if (pid == 0) {
    std::string arg = "listen=" + address;
    execl(kJitlinkExecutor.c_str(), kJitlinkExecutor.c_str(), arg.c_str(),
          static_cast<char *>(nullptr));
    _exit(127);
  }
  char needle[64];
  std::snprintf(needle, sizeof(needle), ":%04X 00000000:0000 0A", port);
  for (int i = 0; i < 500; ++i) {
    std::ifstream tcp("/proc/net/tcp");
    std::string text((std::istreambuf_iterator<char>(tcp)), {});
    if (text.find(needle) != std::string::npos)
      return pid;
    usleep(10000);
  }
  fail("llvm-jitlink-executor did not listen on " + address);
}

int main(int argc, char **argv) {
  std::string jsonPath;
  int iterations = 2000;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
    else if (arg == "--iterations" && i + 1 < argc)
      iterations = std::atoi(argv[++i]);
    else
      fail("usage: executor-runtime-bench [--json FILE] [--iterations N]");
  }

  LocalExecutor server;
  check(server.start(kServer, {"--log=sessions"}, "/dev/null"), "start server");
  auto client = check(ExecutorClient::open(server.address()), "open");
  check(client->sendBinary(kObject), "send_binary");

  // 1. Latency.
  double ping = pingPongMicros(iterations);
  std::vector<HostMemRef> in = {HostMemRef::of<double>({4}, {1, 2, 3, 4})};
  std::vector<double> launchSamples, multiSamples;
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    auto out = check(client->launch("k", kObject, in, {{1, 8}}), "launch");
    launchSamples.push_back(
        std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (out[0].as<double>()[3] != 8)
      fail("wrong launch result");
  }
  uint64_t pyface = check(client->entryAddress("k", kObject), "entry");
  uint64_t allocFn = check(client->bootstrapSymbol(kAllocWrapperName), "alloc");
  uint64_t freeFn = check(client->bootstrapSymbol(kFreeWrapperName), "free");
  uint64_t invokeFn = check(client->bootstrapSymbol(kInvokeWrapperName), "invoke");
  std::vector<double> input = {1, 2, 3, 4}, output;
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    launchMultiRoundTrip(*client, pyface, allocFn, freeFn, invokeFn, input, output);
    multiSamples.push_back(
        std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (output.size() != 4 || output[3] != 8)
      fail("wrong multi-round-trip result");
  }
  double launch = median(launchSamples), multi = median(multiSamples);

  // 2. Bandwidth: 64 MiB in and out.
  const size_t big = 64ull << 20;
  std::vector<double> values(big / 8, 1.5);
  double raw = rawBandwidthMBps(4 * big);
  // Through the descriptor path compiled programs take (the C ABI's).
  std::vector<double> bwSamples;
  for (int i = 0; i < 5; ++i) {
    int64_t inDesc[5] = {0, 0, 0, static_cast<int64_t>(values.size()), 1};
    reinterpret_cast<double **>(inDesc)[0] = values.data();
    reinterpret_cast<double **>(inDesc)[1] = values.data();
    int64_t outDesc[5] = {};
    DescriptorView inView{inDesc, 1}, outView{outDesc, 1};
    int64_t eight = 8;
    auto start = Clock::now();
    check(client->launchDescriptors("k", kObject, {inView}, {eight}, {outView},
                                    {eight}),
          "launch 64 MiB");
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (outView.size(0) != static_cast<int64_t>(values.size()) ||
        reinterpret_cast<double *>(outView.aligned())[100] != 3.0)
      fail("wrong 64 MiB result");
    std::free(outView.allocated());
    bwSamples.push_back(2.0 * big / seconds / 1e6);
  }
  std::sort(bwSamples.begin(), bwSamples.end());
  double launchBw = bwSamples[bwSamples.size() / 2];

  // 3. Memory over 10,000 launches.
  std::vector<pid_t> sessions = server.sessionProcesses();
  pid_t session = sessions.empty() ? -1 : sessions.front();
  long before = residentKiB(session);
  for (int i = 0; i < 10000; ++i)
    check(client->launch("k", kObject, in, {{1, 8}}), "launch");
  long after = residentKiB(session);

  // 4. Latency by kind of executor.
  ExecutorKind serverKind, catalystKind, orcKind;
  double onServer = kindLatency(server.address(), iterations, serverKind);
  LocalExecutor catalystServices;
  check(catalystServices.start(kServer, {"--log=sessions", "--services=catalyst"},
                               "/dev/null"),
        "start server --services=catalyst");
  double onCatalyst =
      kindLatency(catalystServices.address(), iterations, catalystKind);
  catalystServices.stop();
  // 5. TLS beside plaintext, on loopback: a launch's latency and 64 MiB in
  // and out, on the same server build (a token on both).
  auto measure = [&](ExecutorClient &c, double &latency, double &bandwidth) {
    check(c.sendBinary(kObject), "send_binary");
    std::vector<double> samples;
    for (int i = 0; i < iterations; ++i) {
      auto start = Clock::now();
      check(c.launch("k", kObject, in, {{1, 8}}), "launch");
      samples.push_back(std::chrono::duration<double, std::micro>(
                            Clock::now() - start)
                            .count());
    }
    latency = median(samples);
    std::vector<double> rates;
    for (int i = 0; i < 5; ++i) {
      int64_t inDesc[5] = {0, 0, 0, static_cast<int64_t>(values.size()), 1};
      reinterpret_cast<double **>(inDesc)[0] = values.data();
      reinterpret_cast<double **>(inDesc)[1] = values.data();
      int64_t outDesc[5] = {};
      DescriptorView inView{inDesc, 1}, outView{outDesc, 1};
      int64_t eight = 8;
      auto start = Clock::now();
      check(c.launchDescriptors("k", kObject, {inView}, {eight}, {outView},
                                {eight}),
            "launch 64 MiB");
      double seconds =
          std::chrono::duration<double>(Clock::now() - start).count();
      if (reinterpret_cast<double *>(outView.aligned())[100] != 3.0)
        fail("wrong 64 MiB result");
      std::free(outView.allocated());
      rates.push_back(2.0 * big / seconds / 1e6);
    }
    bandwidth = median(rates);
  };
  std::string certs = "/tmp/executor-runtime-bench-" + std::to_string(getpid());
  if (std::system((std::string(MAKE_EXECUTOR_CERTS) + " " + certs +
                   " 127.0.0.1 >/dev/null")
                      .c_str()) != 0)
    fail("make-executor-certs.sh failed");
  {
    std::ofstream(certs + "/token") << "executor-runtime-bench-token-0123\n";
  }
  chmod((certs + "/token").c_str(), 0600);
  ClientOptions withToken;
  withToken.token = "executor-runtime-bench-token-0123";
  LocalExecutor plainServer, tlsServer;
  check(plainServer.start(kServer, {"--log=sessions", "--token-file",
                                    certs + "/token"},
                          "/dev/null"),
        "start plaintext server");
  check(tlsServer.start(kServer, {"--log=sessions", "--token-file",
                                  certs + "/token", "--tls-cert",
                                  certs + "/server.pem", "--tls-key",
                                  certs + "/server.key"},
                        "/dev/null"),
        "start TLS server");
  double plainLatency, plainBw, tlsLatency, tlsBw;
  {
    auto c = check(ExecutorClient::open(plainServer.address(), withToken),
                   "open plaintext");
    measure(*c, plainLatency, plainBw);
  }
  {
    ClientOptions tls = withToken;
    tls.tlsCA = certs + "/ca.pem";
    auto c = check(ExecutorClient::open(tlsServer.address(), tls), "open TLS");
    measure(*c, tlsLatency, tlsBw);
  }
  plainServer.stop();
  tlsServer.stop();
  std::system(("rm -rf " + certs).c_str());

  std::string jitlinkAddress;
  pid_t jitlink = startJitlinkExecutor(jitlinkAddress);
  double onOrc = kindLatency(jitlinkAddress, iterations, orcKind);
  kill(jitlink, SIGKILL);
  waitpid(jitlink, nullptr, 0);

  std::printf("launch latency, memref<4xf64> in and out (median of %d):\n", iterations);
  std::printf("  raw TCP ping-pong, 64 bytes      %8.1f us   (reference)\n", ping);
  std::printf("  executor launch (one round trip) %8.1f us   %.2fx the ping-pong (goal <= 1.5x)\n",
              launch, launch / ping);
  std::printf("  multi-round-trip launch          %8.1f us   one-trip launch is %.2fx faster\n",
              multi, multi / launch);
  std::printf("launch latency by executor kind (median of %d, a new session each):\n",
              iterations);
  std::printf("  %-17s on executor-server                      %8.1f us   (reference)\n",
              executorKindName(serverKind), onServer);
  std::printf("  %-17s on executor-server --services=catalyst %8.1f us   %.1fx\n",
              executorKindName(catalystKind), onCatalyst, onCatalyst / onServer);
  std::printf("  %-17s on llvm-jitlink-executor               %8.1f us   %.1fx\n",
              executorKindName(orcKind), onOrc, onOrc / onServer);
  std::printf("bandwidth, 64 MiB in and out (median of 5):\n");
  std::printf("  raw loopback TCP                 %8.0f MB/s (reference)\n", raw);
  std::printf("  executor launch                  %8.0f MB/s %.0f%% of raw (goal >= 50%%)\n",
              launchBw, 100 * launchBw / raw);
  std::printf("TLS 1.3 beside plaintext on loopback (token on both; latency "
              "median of %d, bandwidth of 5):\n", iterations);
  std::printf("  launch latency  plaintext %8.1f us   TLS %8.1f us   %.2fx "
              "(goal <= 1.3x)\n",
              plainLatency, tlsLatency, tlsLatency / plainLatency);
  std::printf("  64 MiB in+out   plaintext %8.0f MB/s TLS %8.0f MB/s %.0f%%\n",
              plainBw, tlsBw, 100 * tlsBw / plainBw);
  std::printf("session resident memory over 10,000 launches:\n");
  std::printf("  before %ld KiB, after %ld KiB, growth %ld KiB\n", before, after,
              after - before);

  if (!jsonPath.empty()) {
    std::ofstream json(jsonPath);
    json << "{\n"
         << "  \"ping_pong_us\": " << ping << ",\n"
         << "  \"launch_us\": " << launch << ",\n"
         << "  \"launch_vs_ping_pong\": " << launch / ping << ",\n"
         << "  \"multi_round_trip_us\": " << multi << ",\n"
         << "  \"multi_round_trip_vs_launch\": " << multi / launch << ",\n"
         << "  \"raw_bandwidth_mb_s\": " << raw << ",\n"
         << "  \"launch_bandwidth_mb_s\": " << launchBw << ",\n"
         << "  \"bandwidth_fraction\": " << launchBw / raw << ",\n"
         << "  \"rss_before_kib\": " << before << ",\n"
         << "  \"rss_after_kib\": " << after << ",\n"
         << "  \"launch_us_executor_server\": " << onServer << ",\n"
         << "  \"launch_us_catalyst_services\": " << onCatalyst << ",\n"
         << "  \"launch_us_llvm_jitlink_executor\": " << onOrc << ",\n"
         << "  \"launch_us_plaintext_token\": " << plainLatency << ",\n"
         << "  \"launch_us_tls_token\": " << tlsLatency << ",\n"
         << "  \"tls_vs_plaintext_latency\": " << tlsLatency / plainLatency
         << ",\n"
         << "  \"bandwidth_mb_s_plaintext_token\": " << plainBw << ",\n"
         << "  \"bandwidth_mb_s_tls_token\": " << tlsBw << "\n"
         << "}\n";
  }
  check(client->close(), "close");
  return 0;
}
