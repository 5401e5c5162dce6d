//===- RuntimeBench.cpp - launch latency, bandwidth, memory and scale -----===//
//
//   executor-runtime-bench [--json FILE] [--iterations N] [--rounds R]
//                          [--each-round]   (prints each latency round)
//   executor-runtime-bench --executor ADDRESS   (latency and bandwidth
//       against a running executor of any kind or architecture: AnyExecutor.h)
//   executor-runtime-bench --debug-kernels   (only the rows of 5.)
//   executor-runtime-bench --flood   (only the rows of 6.)
//   executor-runtime-bench --remote  (ssh:// and slurm: figures against the
//       bench's own sshd and one-node Slurm: RemoteBench.h)
//   executor-runtime-bench --profile tcp|unix|tls
//       (only launches of that kind for 5 s, pinned to one core: for
//       perf record -a to show where a launch's time goes)
//
// Starts real executor-servers (one on loopback TCP, one on a Unix socket,
// one with TLS 1.3 and a token on loopback) and measures, in one run, every figure against a reference measured in
// the same run:
//   1. latency, in R rounds that interleave the references and the
//      launches (this machine's load moves all of them alike), with client
//      and peers pinned to one core and to two (where the scheduler puts
//      them otherwise decides the figures): a launch of memref<4xf64> in
//      and out over TCP against a raw TCP ping-pong of 64 bytes (goal on
//      one core <= 1.1x), over a Unix socket against a raw Unix-socket
//      ping-pong (goal on one core <= 1.1x), and over TLS 1.3 against an
//      OpenSSL-to-OpenSSL ping-pong of a launch's request and reply sizes
//      (goal <= 1.15x on one core and on two; whether kernel TLS was used
//      is printed, and the ratio to plaintext TCP); the median of the
//      per-round ratios and their spread; then the multi-round-trip
//      launch (allocate, write, invoke, read back, free) and the launch on
//      each kind of executor;
//   2. bandwidth, in rounds: 64 MiB in and out, in only and out only, over
//      TCP and over the Unix socket (shared memory), each against raw
//      loopback TCP moving the same bytes memory to memory (a peer that
//      reads into a 64 MiB buffer and writes back from it) in the same
//      round; the streaming figure (1 MiB cache-hot chunks) is shown too;
//      64 MiB in and out over TLS against plaintext TCP in the same round;
//   3. the session process's resident memory over 10,000 launches;
//   4. scale: launches/s of 8 client threads on one session and on 8
//      sessions against 1 thread; 1,000 objects of one kernel each shipped
//      to one session (time per send_binary, memory per object);
//   5. kernels with debug info: the same MLIR kernel compiled with
//      cross-compile-targets{debug=true} (executor-compile -g) and without,
//      each on a session of its own, launched in interleaved rounds pinned
//      to one core (goal: no cost, <= 1.05x), and the send_binary that
//      links it (where debug objects are registered with the debugger);
//   6. a flood (issue 40): the time a client takes to open a session
//      (connect, TLS, the token's proof, ORC's setup) while 0, 200 and
//      2,000 connections that never finish theirs (half idle, half
//      half-open) are held open against the server from the client's own
//      address, over TCP and TLS with a token and over a Unix socket; and
//      the listener's resident memory then. Printed, not a goal.
// Prints every figure with its reference, its goal and whether it holds;
// --json writes them.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/UnixSocket.h"
#include "ExecutorRuntime/Wire.h"
#include "AnyExecutor.h"
#include "RemoteBench.h"
#include "ExternalExecutor.h"
#include "RunTool.h"

#include "ExecutorStudio/Support/Targets.h"

#include "llvm/Support/FileSystem.h"

#include "llvm/ExecutionEngine/Orc/ExecutorProcessControl.h"
#include "llvm/ExecutionEngine/Orc/MemoryAccess.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <map>
#include <csignal>
#include <dirent.h>
#include <sched.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sys/resource.h>
#include <fstream>
#include <linux/tcp.h> // tcp_info with byte counts
#include <malloc.h>
#include <openssl/ssl.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace executor_studio::runtime;
using Clock = std::chrono::steady_clock;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObject = KERNELS_A_OBJECT;
const std::string kObjectB = KERNELS_B_OBJECT;
const std::string kPlainKernel = PLAIN_KERNEL_OBJECT;
const std::string kDebugKernel = DEBUG_KERNEL_OBJECT;

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

/// Median of `v`, and its smallest and largest values.
struct Spread {
  double median, low, high;
};
Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

const char *verdict(bool holds) { return holds ? "holds" : "missed"; }

double micros(Clock::time_point since) {
  return std::chrono::duration<double, std::micro>(Clock::now() - since).count();
}

/// Forks a loopback TCP peer that runs `serve` on its end of the connection
/// (and ends when it returns). Returns the connected fd.
template <typename ServeFn> int forkPeer(pid_t &child, ServeFn serve) {
  std::string address;
  int listener = bindLoopback(/*listen=*/true, address);
  if (listener < 0)
    fail("cannot listen on loopback");
  child = fork();
  if (child == 0) {
    int fd = accept(listener, nullptr, nullptr);
    tuneSocket(fd);
    serve(fd);
    _exit(0);
  }
  close(listener);
  std::string error;
  int fd = connectTo(address, std::chrono::seconds(5), error);
  if (fd < 0)
    fail(error);
  return fd;
}

/// Forks a loopback TCP peer: it echoes `echoBytes`-byte messages, or, with
/// echoBytes == 0, reads and discards a stream. Returns the connected fd.
int startPeer(size_t echoBytes, pid_t &child) {
  return forkPeer(child, [echoBytes](int fd) {
    std::vector<char> buffer(echoBytes ? echoBytes : (1 << 20));
    while (true) {
      if (echoBytes) {
        size_t got = 0;
        while (got < echoBytes) {
          ssize_t n = read(fd, buffer.data() + got, echoBytes - got);
          if (n <= 0)
            return;
          got += n;
        }
        if (!writeAll(fd, buffer.data(), echoBytes))
          return;
      } else {
        ssize_t n = read(fd, buffer.data(), buffer.size());
        if (n <= 0) {
          char ack = 1;
          (void)!write(fd, &ack, 1);
          return;
        }
        if (n == 1 && buffer[0] == 'E') { // end of stream marker
          char ack = 1;
          (void)!write(fd, &ack, 1);
        }
      }
    }
  });
}

/// The median of `iterations` 64-byte ping-pongs with the echo peer `fd`.
double pingPongMicros(int fd, int iterations) {
  char message[64] = {1};
  std::vector<double> samples;
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    writeAll(fd, message, sizeof(message));
    size_t got = 0;
    while (got < sizeof(message))
      got += read(fd, message + got, sizeof(message) - got);
    samples.push_back(micros(start));
  }
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

/// Forks a loopback TCP peer that moves memory to memory, as a launch
/// must: per request (u64 in, u64 out) it reads `in` bytes into a buffer of
/// its own and writes `out` bytes back from it. Returns the connected fd.
int startMemoryPeer(size_t capacity, pid_t &child) {
  return forkPeer(child, [capacity](int fd) {
    std::vector<char> buffer(capacity, 3);
    auto readAll = [&](char *into, size_t size) {
      while (size > 0) {
        ssize_t n = read(fd, into, size);
        if (n <= 0)
          return false;
        into += n;
        size -= static_cast<size_t>(n);
      }
      return true;
    };
    while (true) {
      uint64_t request[2];
      if (!readAll(reinterpret_cast<char *>(request), sizeof(request)) ||
          !readAll(buffer.data(), request[0]) ||
          !writeAll(fd, buffer.data(), request[1]))
        return;
    }
  });
}

/// MB/s of `in` bytes from `from` to the memory peer and `out` bytes back
/// into `into`: the bytes a launch moves, memory to memory.
double rawTransferMBps(int fd, const char *from, size_t in, char *into,
                       size_t out) {
  uint64_t request[2] = {in, out};
  auto start = Clock::now();
  writeAll(fd, request, sizeof(request));
  writeAll(fd, from, in);
  size_t got = 0;
  while (got < out) {
    ssize_t n = read(fd, into + got, out - got);
    if (n <= 0)
      fail("the memory peer went away");
    got += static_cast<size_t>(n);
  }
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return (in + out) / seconds / 1e6;
}


/// Pins the thread `tid` (0: the calling one) to `cpu`, or lets it run
/// anywhere when `cpu` is negative.
void pinThread(pid_t tid, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned c = 0; c < cores; ++c)
    if (cpu < 0 || static_cast<int>(c) == cpu)
      CPU_SET(c, &set);
  sched_setaffinity(tid, sizeof(set), &set);
}

/// The same for every thread of process `pid`.
void pinProcess(pid_t pid, int cpu) {
  DIR *tasks = opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
  if (!tasks)
    return;
  while (dirent *entry = readdir(tasks))
    if (entry->d_name[0] != '.')
      pinThread(static_cast<pid_t>(std::atoi(entry->d_name)), cpu);
  closedir(tasks);
}

/// `pid` and every process under it. A session listed by
/// LocalExecutor::sessionProcesses is its keeper when sessions run in PID
/// namespaces of their own: the session that runs the kernels is the
/// keeper's child (and what its kernels start is under that).
std::vector<pid_t> processTree(pid_t pid) {
  std::vector<pid_t> all = {pid};
  for (size_t i = 0; i < all.size(); ++i) {
    std::string tasks = "/proc/" + std::to_string(all[i]) + "/task";
    DIR *dir = opendir(tasks.c_str());
    if (!dir)
      continue;
    while (dirent *entry = readdir(dir)) {
      if (entry->d_name[0] == '.')
        continue;
      std::ifstream in(tasks + "/" + entry->d_name + "/children");
      pid_t child;
      while (in >> child)
        all.push_back(child);
    }
    closedir(dir);
  }
  return all;
}

/// The process that runs the kernels of the session `listed` (its keeper's
/// child, or itself when it has no keeper).
pid_t kernelProcess(pid_t listed) {
  std::vector<pid_t> tree = processTree(listed);
  return tree.size() > 1 ? tree[1] : tree[0];
}

/// Pins every process of the sessions of `server` (keepers, sessions and
/// what their kernels started), every thread of each.
void pinSessions(const LocalExecutor &server, int cpu) {
  for (pid_t listed : server.sessionProcesses())
    for (pid_t p : processTree(listed))
      pinProcess(p, cpu);
}

long residentKiB(pid_t pid);

/// 6. (issue 40): opening a session under a flood of connections that never
/// finish their handshake. Median of `rounds` opens per level, each under
/// a fresh flood (the server closes what has not authenticated within
/// --auth-timeout).
void floodFigures(int rounds, std::map<std::string, double> &figures) {
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  setrlimit(RLIMIT_NOFILE, &files);
  getrlimit(RLIMIT_NOFILE, &files);
  std::string certs =
      "/tmp/executor-runtime-bench-flood-" + std::to_string(getpid());
  if (!executor_test::makeExecutorCerts(certs, {"127.0.0.1"}))
    fail("make-executor-certs.sh failed");
  std::ofstream(certs + "/token") << "executor-runtime-bench-token-0123\n";
  chmod((certs + "/token").c_str(), 0600);
  std::printf("a flood (issue 40): opening a session while N connections "
              "that never finish their handshake are held open, half idle, "
              "half half-open (median of %d):\n", rounds);
  for (const char *wire : {"tcp", "tls", "unix"}) {
    std::string kind = wire;
    LocalExecutor server;
    std::vector<std::string> args = {"--log=sessions"};
    ClientOptions options;
    if (kind != "unix") {
      args.insert(args.end(), {"--token-file", certs + "/token"});
      options.token = "executor-runtime-bench-token-0123";
    }
    if (kind == "tls") {
      args.insert(args.end(), {"--tls-cert", certs + "/server.pem",
                               "--tls-key", certs + "/server.key"});
      options.tlsCA = certs + "/ca.pem";
    }
    server.useUnixSocket(kind == "unix");
    check(server.start(kServer, args, "/dev/null"), "start server");
    for (int idle : {0, 200, 2000}) {
      if (static_cast<rlim_t>(idle) + 100 > files.rlim_cur) {
        std::printf("  %-4s %5d connections: skipped (ulimit -n %lu)\n",
                    wire, idle, static_cast<unsigned long>(files.rlim_cur));
        continue;
      }
      std::vector<double> opens;
      long listenerKiB = 0;
      std::string refusal;
      for (int r = 0; r < rounds; ++r) {
        std::vector<int> flood;
        for (int i = 0; i < idle; ++i) {
          std::string error;
          std::string path;
          int fd = isUnixAddress(server.address(), &path)
                       ? connectUnix(path, std::chrono::seconds(2), error)
                       : connectTo(server.address(), std::chrono::seconds(2),
                                   error);
          if (fd < 0)
            fail("flood: " + error);
          flood.push_back(fd);
          if (i % 2) { // half-open: the start of a TLS record or a line
            const char *part = kind == "tls" ? "\x16\x03\x01\x02"
                               : kind == "unix" ? "\x40\x00"
                                                : "EXECUTOR-PROOF 12";
            (void)!send(fd, part, std::strlen(part), MSG_NOSIGNAL);
          }
        }
        // The listener has taken them all (accepts 256 a turn).
        std::this_thread::sleep_for(std::chrono::milliseconds(idle ? 150 : 0));
        auto start = Clock::now();
        auto client = ExecutorClient::open(server.address(), options);
        opens.push_back(micros(start) / 1000);
        listenerKiB = std::max(listenerKiB, residentKiB(server.processId()));
        if (!client)
          refusal = llvm::toString(client.takeError());
        else
          check((*client)->close(), "close");
        for (int fd : flood)
          close(fd);
        // What the server still holds of the flood goes.
        std::this_thread::sleep_for(std::chrono::milliseconds(idle ? 100 : 0));
      }
      if (!refusal.empty()) {
        std::printf("  %-4s %5d connections: FAILED: %s\n", wire, idle,
                    refusal.c_str());
        std::fflush(stdout);
        continue;
      }
      double ms = median(opens);
      std::printf("  %-4s %5d connections: open %8.2f ms   listener %6ld "
                  "KiB resident\n",
                  wire, idle, ms, listenerKiB);
      std::fflush(stdout);
      figures[std::string("flood_open_ms_") + wire + "_" +
              std::to_string(idle)] = ms;
      figures[std::string("flood_listener_kib_") + wire + "_" +
              std::to_string(idle)] = static_cast<double>(listenerKiB);
    }
  }
  llvm::sys::fs::remove_directories(certs);
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
/// allocate, write, invoke, read back, free (six round trips).
void launchMultiRoundTrip(ExecutorClient &client, uint64_t pyface,
                          uint64_t allocFn, uint64_t freeFn, uint64_t invokeFn,
                          const std::vector<double> &input,
                          std::vector<double> &output) {
  using namespace llvm::orc;
  auto &epc = client.processControl();
  // The calls wait the way launches do (ExecutorClient::callAddress), so
  // the comparison is of round trips, not of waiting strategies. Catalyst's
  // services (CatalystServices.h): SPS arguments of u64 words; alloc's reply
  // is the address, free's and invoke's are empty.
  auto call = [&](uint64_t fn, std::vector<uint64_t> words,
                  size_t replyBytes) {
    auto reply = check(
        client.callAddress(fn, llvm::ArrayRef<char>(
                                   reinterpret_cast<const char *>(words.data()),
                                   words.size() * 8)),
        "executor service");
    uint64_t result = 0;
    if (reply.size() != replyBytes)
      fail("executor service replied with " + std::to_string(reply.size()) +
           " bytes, not " + std::to_string(replyBytes));
    if (replyBytes == 8)
      std::memcpy(&result, reply.data(), 8);
    return result;
  };
  // Block: data (32) | input descriptor (40) | args (8) | result descriptor (40)
  const uint64_t dataBytes = input.size() * 8, block = dataBytes + 40 + 8 + 40;
  uint64_t base = call(allocFn, {block}, 8);
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
  call(invokeFn, {pyface, 2, resultAddr, argsAddr}, 0);
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
  // The block the kernel allocated for its result is the kernel's: free
  // takes only what alloc returned (a wild free is refused), so it stays,
  // as with Catalyst's client, which frees only what it allocated.
  call(freeFn, {base}, 0);
}
} // namespace

/// 5. The same kernel with and without debug info, on sessions of their own
/// at `address` (a new pair each round), pinned to CPU 0 with the client:
/// the median launch latency of each, the per-round ratio, and the time of
/// the send_binary that links each object.
struct DebugKernelFigures {
  double plainUs, debugUs, plainShipMs, debugShipMs;
  Spread ratio;
};
DebugKernelFigures debugKernelLatency(LocalExecutor &server, int iterations,
                                      int rounds) {
  std::vector<HostMemRef> in = {HostMemRef::of<double>({4}, {1, 2, 3, 4})};
  auto launches = [&](ExecutorClient &client, const std::string &object) {
    std::vector<double> samples;
    for (int i = 0; i < iterations; ++i) {
      auto start = Clock::now();
      auto out = check(client.launch("twice", object, in, {{1, 8}}), "launch");
      samples.push_back(micros(start));
      if (out[0].as<double>()[3] != 8)
        fail("wrong launch result of the debug-info kernel");
    }
    return median(samples);
  };
  std::vector<double> plain, debug, ratios, plainShip, debugShip;
  pinThread(0, 0);
  for (int r = 0; r < rounds; ++r) {
    auto p = check(ExecutorClient::open(server.address()), "open");
    auto d = check(ExecutorClient::open(server.address()), "open");
    pinSessions(server, 0);
    auto start = Clock::now();
    check(p->sendBinary(kPlainKernel), "send_binary of the plain kernel");
    plainShip.push_back(micros(start) / 1000);
    start = Clock::now();
    check(d->sendBinary(kDebugKernel), "send_binary of the -g kernel");
    debugShip.push_back(micros(start) / 1000);
    launches(*p, kPlainKernel); // warm both
    launches(*d, kDebugKernel);
    double a = launches(*p, kPlainKernel), b = launches(*d, kDebugKernel);
    plain.push_back(a);
    debug.push_back(b);
    ratios.push_back(b / a);
    check(p->close(), "close");
    check(d->close(), "close");
  }
  return {median(plain), median(debug), median(plainShip), median(debugShip),
          spread(ratios)};
}

void printDebugKernelFigures(const DebugKernelFigures &f, int iterations,
                             int rounds) {
  std::printf("kernels with debug info (the same MLIR kernel, memref<4xf64> in "
              "and out, a session each, %d rounds of %d launches, one core):\n",
              rounds, iterations);
  std::printf("  launch, kernel without debug info %7.1f us   (reference)\n",
              f.plainUs);
  std::printf("  launch, kernel built with -g      %7.1f us   %.2fx [%.2f-%.2f] "
              "(goal <= 1.05x: %s)\n",
              f.debugUs, f.ratio.median, f.ratio.low, f.ratio.high,
              verdict(f.ratio.median <= 1.05));
  std::printf("  send_binary, without debug info   %7.2f ms   (reference)\n",
              f.plainShipMs);
  std::printf("  send_binary, with -g              %7.2f ms   %.2fx (linking "
              "registers it with the debugger, once)\n",
              f.debugShipMs, f.debugShipMs / f.plainShipMs);
}

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

/// The median latency of `iterations` memref<4xf64> launches on `client`.
double launchMicros(ExecutorClient &client, int iterations) {
  std::vector<HostMemRef> in = {HostMemRef::of<double>({4}, {1, 2, 3, 4})};
  std::vector<double> samples;
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    auto out = check(client.launch("k", kObject, in, {{1, 8}}), "launch");
    samples.push_back(micros(start));
    if (out[0].as<double>()[3] != 8)
      fail("wrong launch result");
  }
  return median(samples);
}

/// MB/s of one launch of `kernel` through the descriptor path compiled
/// programs take (the C ABI's); `moved` is the bytes that cross.
double launchBandwidth(ExecutorClient &client, const char *kernel,
                       std::vector<double> &input, size_t moved,
                       int64_t expectSize, double expectAt100) {
  int64_t inDesc[5] = {0, 0, 0, static_cast<int64_t>(input.size()), 1};
  reinterpret_cast<double **>(inDesc)[0] = input.data();
  reinterpret_cast<double **>(inDesc)[1] = input.data();
  int64_t outDesc[5] = {};
  DescriptorView inView{inDesc, 1}, outView{outDesc, 1};
  int64_t eight = 8;
  auto start = Clock::now();
  check(client.launchDescriptors(kernel, kObject, {inView}, {eight},
                                 {outView}, {eight}),
        "launch 64 MiB");
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (outView.size(0) != expectSize ||
      reinterpret_cast<double *>(outView.aligned())[expectSize > 100 ? 100 : 0] !=
          expectAt100)
    fail(std::string("wrong result of the 64 MiB launch of ") + kernel);
  std::free(outView.allocated());
  return moved / seconds / 1e6;
}

/// Launches per second of `threads` threads, each launching `perThread`
/// times on clients[t % clients.size()].
double launchesPerSecond(std::vector<std::unique_ptr<ExecutorClient>> &clients,
                         int threads, int perThread) {
  std::atomic<bool> wrong{false};
  auto start = Clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      ExecutorClient &client = *clients[t % clients.size()];
      std::vector<HostMemRef> in = {HostMemRef::of<double>({4}, {1, 2, 3, 4})};
      for (int i = 0; i < perThread; ++i) {
        auto out = client.launch("k", kObject, in, {{1, 8}});
        if (!out || (*out)[0].as<double>()[3] != 8) {
          if (!out)
            llvm::consumeError(out.takeError());
          wrong = true;
        }
      }
    });
  for (std::thread &w : workers)
    w.join();
  if (wrong)
    fail("a launch from several threads failed");
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return threads * perThread / seconds;
}

/// Forks a peer at the other end of a Unix socket pair that echoes
/// `echoBytes`-byte messages (the raw floor of launches over a Unix socket).
/// Returns this side's end.
int startUnixEchoPeer(size_t echoBytes, pid_t &child) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    fail("cannot make a Unix socket pair");
  child = fork();
  if (child == 0) {
    // Only its own end stays open: a copy of another peer's socket would
    // keep that peer from seeing its end.
    int fd = dup2(ends[1], 3);
    close_range(4, ~0U, 0);
    ends[1] = fd;
    std::vector<char> buffer(echoBytes);
    while (true) {
      size_t got = 0;
      while (got < echoBytes) {
        ssize_t n = read(ends[1], buffer.data() + got, echoBytes - got);
        if (n <= 0)
          _exit(0);
        got += static_cast<size_t>(n);
      }
      if (!writeAll(ends[1], buffer.data(), echoBytes))
        _exit(0);
    }
  }
  close(ends[1]);
  return ends[0];
}

/// Bytes sent and received so far on each TCP socket of this process.
std::map<int, std::pair<uint64_t, uint64_t>> tcpTraffic() {
  std::map<int, std::pair<uint64_t, uint64_t>> traffic;
  DIR *fds = opendir("/proc/self/fd");
  if (!fds)
    return traffic;
  while (dirent *entry = readdir(fds)) {
    if (entry->d_name[0] == '.')
      continue;
    int fd = std::atoi(entry->d_name);
    tcp_info info{};
    socklen_t size = sizeof(info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) == 0 &&
        size >= offsetof(tcp_info, tcpi_bytes_received) + 8)
      traffic[fd] = {info.tcpi_bytes_acked, info.tcpi_bytes_received};
  }
  closedir(fds);
  return traffic;
}

/// A launch's bytes on the wire, each way (request, reply): what the
/// busiest TCP socket of this process moved over `iterations` launches.
std::pair<size_t, size_t> launchWireBytes(ExecutorClient &client,
                                          int iterations) {
  auto before = tcpTraffic();
  launchMicros(client, iterations);
  auto after = tcpTraffic();
  uint64_t sent = 0, received = 0;
  for (auto &[fd, bytes] : after) {
    auto it = before.find(fd);
    if (it == before.end())
      continue;
    uint64_t out = bytes.first - it->second.first;
    if (out > sent) {
      sent = out;
      received = bytes.second - it->second.second;
    }
  }
  if (!sent || !received)
    fail("cannot measure a launch's bytes on the wire (TCP_INFO)");
  return {sent / iterations, received / iterations};
}

/// The floor of TLS with OpenSSL: OpenSSL's client and a forked OpenSSL
/// server (both with OpenSSL's defaults, kernel TLS asked for as the
/// executor does), ping-ponging a launch's request and reply sizes over
/// loopback TCP.
struct OpenSslPingPong {
  SSL *ssl = nullptr;
  int fd = -1;
  pid_t peer = -1;
  size_t request = 0, reply = 0;
  bool kernelTls = false;
};

OpenSslPingPong startOpenSslPingPong(const std::string &certs, size_t request,
                                     size_t reply) {
  OpenSslPingPong p;
  p.request = request;
  p.reply = reply;
  SSL_CTX *serverCtx = SSL_CTX_new(TLS_server_method());
  SSL_CTX_set_min_proto_version(serverCtx, TLS1_3_VERSION);
  SSL_CTX_set_options(serverCtx, SSL_OP_ENABLE_KTLS);
  if (SSL_CTX_use_certificate_chain_file(serverCtx,
                                         (certs + "/server.pem").c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(serverCtx, (certs + "/server.key").c_str(),
                                  SSL_FILETYPE_PEM) != 1)
    fail("the OpenSSL ping-pong's server cannot load its certificate");
  p.fd = forkPeer(p.peer, [&](int fd) {
    SSL *ssl = SSL_new(serverCtx);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) != 1)
      return;
    std::vector<char> in(request), out(reply, 5);
    while (true) {
      size_t got = 0, n = 0;
      while (got < request) {
        if (SSL_read_ex(ssl, in.data() + got, request - got, &n) != 1)
          return;
        got += n;
      }
      if (SSL_write_ex(ssl, out.data(), reply, &n) != 1)
        return;
    }
  });
  SSL_CTX_free(serverCtx);
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  SSL_CTX_set_options(ctx, SSL_OP_ENABLE_KTLS);
  p.ssl = SSL_new(ctx);
  SSL_CTX_free(ctx);
  SSL_set_fd(p.ssl, p.fd);
  if (SSL_connect(p.ssl) != 1)
    fail("the OpenSSL ping-pong's handshake failed");
  p.kernelTls = BIO_get_ktls_send(SSL_get_wbio(p.ssl)) &&
                BIO_get_ktls_recv(SSL_get_rbio(p.ssl));
  return p;
}

/// The median of `iterations` request/reply round trips through OpenSSL.
double openSslPingPongMicros(OpenSslPingPong &p, int iterations) {
  std::vector<char> out(p.request, 3), in(p.reply);
  std::vector<double> samples;
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    size_t n = 0, got = 0;
    if (SSL_write_ex(p.ssl, out.data(), out.size(), &n) != 1)
      fail("the OpenSSL ping-pong's write failed");
    while (got < p.reply) {
      if (SSL_read_ex(p.ssl, in.data() + got, p.reply - got, &n) != 1)
        fail("the OpenSSL ping-pong's read failed");
      got += n;
    }
    samples.push_back(micros(start));
  }
  return median(samples);
}

int main(int argc, char **argv) {
  // LLVM's targets, as the tools register them (Targets.h).
  executor_studio::initializeTargets();
  std::string jsonPath;
  int iterations = 300, rounds = 15;
  bool eachRound = false, debugKernelsOnly = false, floodOnly = false,
       remoteOnly = false;
  std::string profileKind, executorAddress;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
    else if (arg == "--iterations" && i + 1 < argc)
      iterations = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--rounds" && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--each-round")
      eachRound = true;
    else if (arg == "--profile" && i + 1 < argc)
      profileKind = argv[++i];
    else if (arg == "--executor" && i + 1 < argc)
      executorAddress = argv[++i];
    else if (arg == "--debug-kernels")
      debugKernelsOnly = true;
    else if (arg == "--flood")
      floodOnly = true;
    else if (arg == "--remote")
      remoteOnly = true;
    else if (arg == "--echo-peer" && i + 2 < argc)
      return runEchoPeer(std::strtoul(argv[i + 1], nullptr, 10),
                         std::strtoul(argv[i + 2], nullptr, 10));
    else
      fail("usage: executor-runtime-bench [--json FILE] [--iterations N] "
           "[--rounds R] [--each-round] [--profile tcp|unix|tls] "
           "[--executor ADDRESS] [--debug-kernels] [--flood] [--remote]");
  }
  if (!executorAddress.empty())
    return benchAnyExecutor(executorAddress, iterations, rounds);
  if (debugKernelsOnly) {
    LocalExecutor server;
    check(server.start(kServer, {"--log=sessions"}, "/dev/null"), "start server");
    printDebugKernelFigures(debugKernelLatency(server, iterations, rounds),
                            iterations, rounds);
    return 0;
  }
  if (remoteOnly) {
    // A launch's bytes each way, as they cross any stream (measured on
    // loopback TCP): the ssh ping-pong moves as many.
    LocalExecutor server;
    check(server.start(kServer, {"--log=sessions"}, "/dev/null"), "start server");
    auto client = check(ExecutorClient::open(server.address()), "open");
    check(client->sendBinary(kObject), "send_binary");
    auto [requestBytes, replyBytes] = launchWireBytes(*client, 200);
    std::string self = llvm::sys::fs::getMainExecutable(
        argv[0], reinterpret_cast<void *>(&launchMicros));
    return benchRemote(requestBytes, replyBytes, iterations / 3 + 1, rounds,
                       self);
  }
  std::map<std::string, double> figures;
  if (floodOnly) {
    floodFigures(5, figures);
    return 0;
  }
  // Launches move large memrefs through buffers that live for one call:
  // this program keeps them in the heap for reuse (the runtime library
  // leaves malloc's settings to the program that links it).
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1);

  LocalExecutor server, unixServer;
  check(server.start(kServer, {"--log=sessions"}, "/dev/null"), "start server");
  unixServer.useUnixSocket(true);
  check(unixServer.start(kServer, {"--log=sessions"}, "/dev/null"),
        "start server on a Unix socket");
  auto client = check(ExecutorClient::open(server.address()), "open");
  check(client->sendBinary(kObject), "send_binary");
  auto local = check(ExecutorClient::open(unixServer.address()), "open unix");
  check(local->sendBinary(kObject), "send_binary");
  // TLS 1.3 with a token, on loopback (certificates as docs/executors.md makes
  // them; the token is checked once, at connect).
  std::string certs = "/tmp/executor-runtime-bench-" + std::to_string(getpid());
  if (!executor_test::makeExecutorCerts(certs, {"127.0.0.1"}))
    fail("make-executor-certs.sh failed");
  std::ofstream(certs + "/token") << "executor-runtime-bench-token-0123\n";
  chmod((certs + "/token").c_str(), 0600);
  LocalExecutor tlsServer;
  check(tlsServer.start(kServer, {"--log=sessions", "--token-file",
                                  certs + "/token", "--tls-cert",
                                  certs + "/server.pem", "--tls-key",
                                  certs + "/server.key"},
                        "/dev/null"),
        "start TLS server");
  ClientOptions tlsOptions;
  tlsOptions.token = "executor-runtime-bench-token-0123";
  tlsOptions.tlsCA = certs + "/ca.pem";
  auto secure =
      check(ExecutorClient::open(tlsServer.address(), tlsOptions), "open TLS");
  check(secure->sendBinary(kObject), "send_binary");
  // TLS's floor: OpenSSL to OpenSSL, a launch's bytes each way.
  auto [requestBytes, replyBytes] = launchWireBytes(*client, 200);
  OpenSslPingPong openSsl =
      startOpenSslPingPong(certs, requestBytes, replyBytes);
  llvm::sys::fs::remove_directories(certs);
  std::string tlsSession = secure->tlsDescription();

  // 1. Latency, interleaved in rounds, in two placements: client and
  // executor (and the ping-pong's peer) on one core, and on two. Where the
  // scheduler puts them decides a wake-up's cost on this VM (a cross-core
  // wake-up costs tens of microseconds), and it moves them between rounds:
  // pinned, the reference and the launch always pay the same.
  pid_t echo, unixEcho;
  int echoFd = startPeer(64, echo);
  int unixEchoFd = startUnixEchoPeer(64, unixEcho);
  unsigned cores = std::thread::hardware_concurrency();
  struct Placement {
    const char *name;
    int peerCpu;
    std::vector<double> pings, unixPings, launches, unixLaunches, tlsLaunches,
        ratios, unixRatios, tlsRatios, tlsFloors, tlsFloorRatios;
  };
  auto placement = [](const char *name, int peerCpu) {
    Placement p;
    p.name = name;
    p.peerCpu = peerCpu;
    return p;
  };
  std::vector<Placement> placements = {placement("one core (client and executor on CPU 0)", 0)};
  if (cores > 1)
    placements.push_back(placement("two cores (client on CPU 0, executor on CPU 1)", 1));
  // (Every process of each session: the one that runs the kernels is under
  // its keeper.)
  std::vector<pid_t> peers = {echo, unixEcho, openSsl.peer};
  for (LocalExecutor *s : {&server, &unixServer, &tlsServer})
    for (pid_t listed : s->sessionProcesses())
      for (pid_t p : processTree(listed))
        peers.push_back(p);
  if (!profileKind.empty()) {
    // Only launches of one kind, everything on CPU 0, for 5 s: for a
    // profiler (perf record -a) to see where a launch's time goes.
    ExecutorClient *chosen = profileKind == "tcp"    ? client.get()
                             : profileKind == "unix" ? local.get()
                             : profileKind == "tls"  ? secure.get()
                                                     : nullptr;
    if (!chosen)
      fail("--profile takes tcp, unix or tls");
    pinThread(0, 0);
    for (pid_t p : peers)
      pinProcess(p, 0);
    auto start = Clock::now();
    int done = 0;
    while (std::chrono::duration<double>(Clock::now() - start).count() < 5) {
      launchMicros(*chosen, 100);
      done += 100;
    }
    std::printf("%s: %d launches, %.1f us each\n", profileKind.c_str(), done,
                micros(start) / done);
    return 0;
  }
  for (int r = 0; r < rounds; ++r) {
    for (Placement &place : placements) {
      pinThread(0, 0);
      for (pid_t p : peers)
        pinProcess(p, place.peerCpu);
      double ping = pingPongMicros(echoFd, iterations);
      double unixPing = pingPongMicros(unixEchoFd, iterations);
      double launch = launchMicros(*client, iterations);
      double unixLaunch = launchMicros(*local, iterations);
      double tlsLaunch = launchMicros(*secure, iterations);
      double tlsFloor = openSslPingPongMicros(openSsl, iterations);
      place.tlsFloors.push_back(tlsFloor);
      place.tlsFloorRatios.push_back(tlsLaunch / tlsFloor);
      place.pings.push_back(ping);
      place.launches.push_back(launch);
      place.unixLaunches.push_back(unixLaunch);
      place.tlsLaunches.push_back(tlsLaunch);
      place.ratios.push_back(launch / ping);
      place.unixPings.push_back(unixPing);
      place.unixRatios.push_back(unixLaunch / unixPing);
      place.tlsRatios.push_back(tlsLaunch / launch);
      if (eachRound)
        std::printf("round %2d, %s: ping-pong %6.1f us, TCP launch %6.1f us, "
                    "Unix ping-pong %6.1f us, Unix launch %6.1f us, TLS "
                    "launch %6.1f us, OpenSSL ping-pong %6.1f us\n",
                    r + 1, place.name, ping, launch, unixPing, unixLaunch,
                    tlsLaunch, tlsFloor);
    }
  }
  pinThread(0, -1);
  for (pid_t p : peers)
    pinProcess(p, -1);
  close(echoFd);
  waitpid(echo, nullptr, 0);
  close(unixEchoFd);
  waitpid(unixEcho, nullptr, 0);
  SSL_free(openSsl.ssl);
  close(openSsl.fd);
  waitpid(openSsl.peer, nullptr, 0);

  uint64_t pyface = check(client->entryAddress("k", kObject), "entry");
  uint64_t allocFn = check(client->bootstrapSymbol("catalyst_remote_alloc"), "alloc");
  uint64_t freeFn = check(client->bootstrapSymbol("catalyst_remote_free"), "free");
  uint64_t invokeFn = check(client->bootstrapSymbol("catalyst_remote_invoke"), "invoke");
  std::vector<double> input = {1, 2, 3, 4}, output, multiSamples;
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    launchMultiRoundTrip(*client, pyface, allocFn, freeFn, invokeFn, input, output);
    multiSamples.push_back(micros(start));
    if (output.size() != 4 || output[3] != 8)
      fail("wrong multi-round-trip result");
  }
  double multi = median(multiSamples);
  double multiLaunch = launchMicros(*client, iterations);

  // 2. Bandwidth: 64 MiB in and out, in only, out only; in rounds.
  const size_t big = 64ull << 20;
  const int64_t n = static_cast<int64_t>(big / 8);
  std::vector<double> values(big / 8, 1.5), count = {double(n)};
  for (size_t i = 0; i < values.size(); i += 4096)
    values[i] = 1.5; // touched once before timing
  struct Direction {
    const char *name, *kernel;
    std::vector<double> *input;
    size_t moved;
    int64_t size;
    double at;
  };
  Direction directions[] = {
      {"in and out", "k", &values, 2 * big, n, 3.0},
      {"in only", "sum", &values, big, 1, 1.5 * n},
      {"out only", "iota", &count, big, n, 100.0},
  };
  const int bwRounds = 5;
  std::vector<double> raws, streams;
  std::vector<std::vector<double>> rawBy(3);
  pid_t memoryPeer;
  int memoryFd = startMemoryPeer(big, memoryPeer);
  std::vector<char> landing(big, 0); // where raw transfers land (warm)
  size_t rawIn[3] = {big, big, 0}, rawOut[3] = {big, 0, big};
  std::vector<std::vector<double>> tcpBw(3), unixBw(3), tcpFrac(3), unixFrac(3);
  std::vector<double> tlsBw, tlsFrac;
  // Warm both sessions' heaps and ours (first touches of 64 MiB cost tens
  // of milliseconds of page faults on this VM), twice, in the rounds' order.
  for (int pass = 0; pass < 2; ++pass)
    for (Direction &d : directions)
      for (auto *c : {client.get(), local.get(), secure.get()})
        if (c != secure.get() || d.kernel == std::string("k"))
          launchBandwidth(*c, d.kernel, *d.input, d.moved, d.size, d.at);
  for (int d = 0; d < 3; ++d) // warm the peer's and our buffers
    rawTransferMBps(memoryFd, reinterpret_cast<const char *>(values.data()),
                    rawIn[d], landing.data(), rawOut[d]);
  for (int r = 0; r < bwRounds; ++r) {
    streams.push_back(rawBandwidthMBps(4 * big));
    for (int d = 0; d < 3; ++d) {
      Direction &dir = directions[d];
      double raw = rawTransferMBps(
          memoryFd, reinterpret_cast<const char *>(values.data()), rawIn[d],
          landing.data(), rawOut[d]);
      rawBy[d].push_back(raw);
      if (d == 0)
        raws.push_back(raw);
      double tcp = launchBandwidth(*client, dir.kernel, *dir.input, dir.moved,
                                   dir.size, dir.at);
      double shm = launchBandwidth(*local, dir.kernel, *dir.input, dir.moved,
                                   dir.size, dir.at);
      tcpBw[d].push_back(tcp);
      unixBw[d].push_back(shm);
      tcpFrac[d].push_back(tcp / raw);
      unixFrac[d].push_back(shm / raw);
      if (d == 0) {
        double tls = launchBandwidth(*secure, dir.kernel, *dir.input,
                                     dir.moved, dir.size, dir.at);
        tlsBw.push_back(tls);
        tlsFrac.push_back(tls / tcp);
      }
    }
  }

  close(memoryFd);
  waitpid(memoryPeer, nullptr, 0);

  // 3. Memory over 10,000 launches.
  std::vector<pid_t> sessions = server.sessionProcesses();
  pid_t session = sessions.empty() ? -1 : kernelProcess(sessions.front());
  long before = residentKiB(session);
  {
    std::vector<HostMemRef> in = {HostMemRef::of<double>({4}, {1, 2, 3, 4})};
    for (int i = 0; i < 10000; ++i)
      check(client->launch("k", kObject, in, {{1, 8}}), "launch");
  }
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
  executor_test::JitlinkExecutor jitlink;
  if (!jitlink.start())
    fail("llvm-jitlink-executor did not start on " + jitlink.address);
  double onOrc = kindLatency(jitlink.address, iterations, orcKind);
  jitlink.stop();
  DebugKernelFigures debugKernels = debugKernelLatency(server, iterations, rounds);

  // 5. Scale: threads on one session and on their own sessions.
  const int perThread = std::max(1000, 4 * iterations);
  std::vector<std::unique_ptr<ExecutorClient>> one;
  one.push_back(check(ExecutorClient::open(server.address()), "open"));
  check(one[0]->sendBinary(kObject), "send_binary");
  std::vector<std::unique_ptr<ExecutorClient>> eight;
  for (int i = 0; i < 8; ++i) {
    eight.push_back(check(ExecutorClient::open(server.address()), "open"));
    check(eight.back()->sendBinary(kObject), "send_binary");
  }
  std::vector<double> single, shared8, own8;
  for (int r = 0; r < 5; ++r) {
    single.push_back(launchesPerSecond(one, 1, 8 * perThread));
    shared8.push_back(launchesPerSecond(one, 8, perThread));
    own8.push_back(launchesPerSecond(eight, 8, perThread));
  }
  double rate1 = median(single), rateShared = median(shared8),
         rateOwn = median(own8);
  one.clear();
  eight.clear();

  // 1,000 objects of one kernel each, shipped to one session.
  auto objects = check(ExecutorClient::open(server.address()), "open");
  std::vector<pid_t> before1000 = server.sessionProcesses();
  std::ifstream objectFile(kObjectB, std::ios::binary);
  std::vector<char> objectBytes((std::istreambuf_iterator<char>(objectFile)), {});
  pid_t objectSession = -1;
  for (pid_t p : server.sessionProcesses())
    if (std::find(sessions.begin(), sessions.end(), p) == sessions.end())
      objectSession = kernelProcess(p); // the newest
  long sessionBefore = residentKiB(objectSession), selfBefore = residentKiB(getpid());
  const int kObjects = 1000;
  std::vector<double> sendMillis;
  for (int i = 0; i < kObjects; ++i) {
    auto start = Clock::now();
    check(objects->sendBinary("object-" + std::to_string(i), objectBytes),
          "send_binary of one of 1,000 objects");
    sendMillis.push_back(micros(start) / 1000);
  }
  long sessionAfter = residentKiB(objectSession), selfAfter = residentKiB(getpid());
  auto last = check(objects->launch("k", "object-999", {HostMemRef::of<double>({1}, {1})},
                                    {{1, 8}}),
                    "launch in the 1,000th object");
  if (last[0].as<double>()[0] != 101)
    fail("wrong result from the 1,000th object");
  auto mean = [](std::vector<double>::iterator from, std::vector<double>::iterator to) {
    double sum = 0;
    for (auto it = from; it != to; ++it)
      sum += *it;
    return sum / (to - from);
  };
  double firstSends = mean(sendMillis.begin(), sendMillis.begin() + 100);
  double lastSends = mean(sendMillis.end() - 100, sendMillis.end());
  double sessionPerObject = (sessionAfter - sessionBefore) / double(kObjects);
  double clientPerObject = (selfAfter - selfBefore) / double(kObjects);
  objects.reset();
  (void)before1000;

  Spread raw = spread(raws), stream = spread(streams);
  std::printf("launch latency, memref<4xf64> in and out (%d rounds of %d, "
              "references and launches interleaved; median [min-max] of the "
              "rounds; the goals hold when they hold in every placement):\n",
              rounds, iterations);
  double oneCoreRatio = 0, oneCoreUnixRatio = 0, worstTlsRatio = 0,
         worstTlsFloorRatio = 0, fastestLaunch = 1e300;
  for (Placement &place : placements) {
    Spread ping = spread(place.pings), launch = spread(place.launches),
           unixLaunch = spread(place.unixLaunches),
           unixPing = spread(place.unixPings),
           ratio = spread(place.ratios), unixRatio = spread(place.unixRatios),
           tlsLaunch = spread(place.tlsLaunches),
           tlsRatio = spread(place.tlsRatios),
           tlsFloor = spread(place.tlsFloors),
           tlsFloorRatio = spread(place.tlsFloorRatios);
    worstTlsFloorRatio = std::max(worstTlsFloorRatio, tlsFloorRatio.median);
    fastestLaunch = std::min({fastestLaunch, launch.median, unixLaunch.median});
    worstTlsRatio = std::max(worstTlsRatio, tlsRatio.median);
    if (place.peerCpu == 0) {
      oneCoreRatio = ratio.median;
      oneCoreUnixRatio = unixRatio.median;
    }
    std::printf(" %s:\n", place.name);
    std::printf("  raw TCP ping-pong, 64 bytes      %8.1f us   [%.1f-%.1f] (reference)\n",
                ping.median, ping.low, ping.high);
    // The goals of the wire's floors are one core's (a cross-core wake-up
    // dominates the two-core figures).
    std::string goal = place.peerCpu == 0 ? "goal <= 1.1x: " : "shown";
    std::printf("  launch over TCP                  %8.1f us   %.2fx the ping-pong "
                "[%.2f-%.2f] (%s%s)\n",
                launch.median, ratio.median, ratio.low, ratio.high,
                goal.c_str(),
                place.peerCpu == 0 ? verdict(ratio.median <= 1.1) : "");
    std::printf("  raw Unix-socket ping-pong, 64 bytes %5.1f us   [%.1f-%.1f] (reference)\n",
                unixPing.median, unixPing.low, unixPing.high);
    std::printf("  launch over a Unix socket        %8.1f us   %.2fx the Unix "
                "ping-pong [%.2f-%.2f] (%s%s)\n",
                unixLaunch.median, unixRatio.median, unixRatio.low,
                unixRatio.high, goal.c_str(),
                place.peerCpu == 0 ? verdict(unixRatio.median <= 1.1) : "");
    std::printf("  OpenSSL-to-OpenSSL TLS 1.3 ping-pong, %zu/%zu bytes %8.1f us   "
                "[%.1f-%.1f] (reference)\n",
                requestBytes, replyBytes, tlsFloor.median, tlsFloor.low,
                tlsFloor.high);
    std::printf("  launch over TLS 1.3              %8.1f us   %.2fx the OpenSSL "
                "ping-pong [%.2f-%.2f] (goal <= 1.15x: %s); %.2fx plaintext "
                "TCP [%.2f-%.2f]\n",
                tlsLaunch.median, tlsFloorRatio.median, tlsFloorRatio.low,
                tlsFloorRatio.high, verdict(tlsFloorRatio.median <= 1.15),
                tlsRatio.median, tlsRatio.low, tlsRatio.high);
    std::string key = place.peerCpu == 0 ? "one_core_" : "two_cores_";
    figures[key + "ping_pong_us"] = ping.median;
    figures[key + "launch_us"] = launch.median;
    figures[key + "launch_vs_ping_pong"] = ratio.median;
    figures[key + "launch_vs_ping_pong_min"] = ratio.low;
    figures[key + "launch_vs_ping_pong_max"] = ratio.high;
    figures[key + "unix_ping_pong_us"] = unixPing.median;
    figures[key + "unix_launch_us"] = unixLaunch.median;
    figures[key + "unix_launch_vs_ping_pong"] = unixRatio.median;
    figures[key + "unix_launch_vs_ping_pong_min"] = unixRatio.low;
    figures[key + "unix_launch_vs_ping_pong_max"] = unixRatio.high;
    figures[key + "tls_launch_us"] = tlsLaunch.median;
    figures[key + "tls_launch_vs_plaintext"] = tlsRatio.median;
    figures[key + "openssl_ping_pong_us"] = tlsFloor.median;
    figures[key + "tls_launch_vs_openssl_ping_pong"] = tlsFloorRatio.median;
    figures[key + "tls_launch_vs_plaintext_min"] = tlsRatio.low;
    figures[key + "tls_launch_vs_plaintext_max"] = tlsRatio.high;
  }
  std::printf("  on one core, launch over TCP: %.2fx the TCP ping-pong (goal "
              "<= 1.1x: %s); over a Unix socket: %.2fx the Unix-socket "
              "ping-pong (goal <= 1.1x: %s)\n",
              oneCoreRatio, verdict(oneCoreRatio <= 1.1), oneCoreUnixRatio,
              verdict(oneCoreUnixRatio <= 1.1));
  std::printf("  launch over TLS 1.3: %.2fx the OpenSSL ping-pong in the worse "
              "placement (goal <= 1.15x: %s), %.2fx plaintext TCP; kernel TLS: "
              "%s (the executor's session: %s)\n",
              worstTlsFloorRatio, verdict(worstTlsFloorRatio <= 1.15),
              worstTlsRatio, openSsl.kernelTls ? "used" : "not used",
              tlsSession.c_str());
  {
    // What believing nothing costs a launch (issue 22): the client's check
    // of a memref<4xf64> launch's reply (readLaunchReply) and the
    // executor's of the kernel's result descriptor (checkResultView), on
    // the bytes they see, against the fastest launch measured above.
    std::vector<char> reply(64, 0);
    uint64_t status = kReplyOk, bytes = 32;
    uint32_t rank = 1, elt = 8;
    int64_t size = 4;
    std::memcpy(reply.data(), &status, 8);
    std::memcpy(reply.data() + 8, &rank, 4);
    std::memcpy(reply.data() + 12, &elt, 4);
    std::memcpy(reply.data() + 16, &size, 8);
    std::memcpy(reply.data() + 24, &bytes, 8);
    double data[4] = {1, 2, 3, 4};
    int64_t words[5] = {int64_t(uintptr_t(data)), int64_t(uintptr_t(data)), 0,
                        4, 1};
    DescriptorView view{words, 1};
    const std::vector<int64_t> ranks = {1}, elts = {8};
    constexpr int kChecks = 200000;
    size_t passed = 0;
    auto start = Clock::now();
    for (int i = 0; i < kChecks; ++i) {
      llvm::SmallVector<ReplyMemRef, 4> placed;
      passed += readLaunchReply(reply.data(), reply.size(), nullptr, 0, ranks,
                                elts, placed)
                    .empty();
      ResultReach reach;
      passed += checkResultView(view, 8, reach).empty();
    }
    double ns = micros(start) * 1000 / kChecks;
    if (passed != 2 * size_t(kChecks))
      fail("the validation benchmark's reply was refused");
    double share = ns / (fastestLaunch * 1000);
    std::printf("  reply validation (client and executor) %6.0f ns   %.2f%% of "
                "the fastest launch above, %.1f us (goal < 2%%: %s)\n",
                ns, share * 100, fastestLaunch, verdict(share < 0.02));
    figures["reply_validation_ns"] = ns;
    figures["reply_validation_share_of_launch"] = share;
  }
  std::printf("  multi-round-trip launch          %8.1f us   one-trip launch "
              "(%.1f us) is %.2fx faster\n",
              multi, multiLaunch, multi / multiLaunch);
  std::printf("launch latency by executor kind (median of %d, a new session each):\n",
              iterations);
  std::printf("  %-17s on executor-server                      %8.1f us   (reference)\n",
              executorKindName(serverKind), onServer);
  std::printf("  %-17s on executor-server --services=catalyst %8.1f us   %.1fx\n",
              executorKindName(catalystKind), onCatalyst, onCatalyst / onServer);
  std::printf("  %-17s on llvm-jitlink-executor               %8.1f us   %.1fx\n",
              executorKindName(orcKind), onOrc, onOrc / onServer);
  printDebugKernelFigures(debugKernels, iterations, rounds);
  std::printf("bandwidth, 64 MiB (%d rounds, each launch against raw "
              "loopback TCP moving the same bytes memory to memory in the same "
              "round; median [min-max]):\n",
              bwRounds);
  std::printf("  raw loopback TCP, streaming 1 MiB cache-hot chunks "
              "%8.0f MB/s [%.0f-%.0f] (for comparison)\n",
              stream.median, stream.low, stream.high);
  for (int d = 0; d < 3; ++d) {
    Spread r = spread(rawBy[d]);
    std::printf("  raw loopback TCP, %-12s   %8.0f MB/s [%.0f-%.0f] (reference)\n",
                directions[d].name, r.median, r.low, r.high);
    figures[std::string("raw_bandwidth_mb_s_") + directions[d].kernel] = r.median;
  }
  for (int d = 0; d < 3; ++d) {
    Spread b = spread(tcpBw[d]), f = spread(tcpFrac[d]);
    std::printf("  TCP, %-12s                %8.0f MB/s %3.0f%% of raw [%.0f-%.0f%%] "
                "(goal >= 70%%: %s)\n",
                directions[d].name, b.median, 100 * f.median, 100 * f.low,
                100 * f.high, verdict(f.median >= 0.7));
    figures[std::string("tcp_bandwidth_fraction_") + directions[d].kernel] = f.median;
    figures[std::string("tcp_bandwidth_mb_s_") + directions[d].kernel] = b.median;
  }
  for (int d = 0; d < 3; ++d) {
    Spread b = spread(unixBw[d]), f = spread(unixFrac[d]);
    std::printf("  Unix socket + shared memory, %-12s %6.0f MB/s %.2fx raw [%.2f-%.2f] "
                "(goal >= 2x: %s)\n",
                directions[d].name, b.median, f.median, f.low, f.high,
                verdict(f.median >= 2.0));
    figures[std::string("unix_bandwidth_vs_raw_") + directions[d].kernel] = f.median;
    figures[std::string("unix_bandwidth_mb_s_") + directions[d].kernel] = b.median;
  }
  {
    Spread b = spread(tlsBw), f = spread(tlsFrac);
    std::printf("  TLS 1.3, in and out            %8.0f MB/s %3.0f%% of plaintext "
                "TCP [%.0f-%.0f%%] (for comparison)\n",
                b.median, 100 * f.median, 100 * f.low, 100 * f.high);
    figures["tls_bandwidth_mb_s_k"] = b.median;
    figures["tls_bandwidth_vs_plaintext_k"] = f.median;
  }
  std::printf("session resident memory over 10,000 launches:\n");
  std::printf("  before %ld KiB, after %ld KiB, growth %ld KiB\n", before, after,
              after - before);
  std::printf("scale (launches/s of memref<4xf64>, %d launches in all, "
              "median of 5 rounds; %u cores):\n",
              8 * perThread, std::thread::hardware_concurrency());
  std::printf("  1 thread, 1 session              %8.0f /s   (reference)\n", rate1);
  std::printf("  8 threads, 1 session             %8.0f /s   %.2fx\n", rateShared,
              rateShared / rate1);
  std::printf("  8 threads, 8 sessions            %8.0f /s   %.2fx\n", rateOwn,
              rateOwn / rate1);
  std::printf("1,000 objects of one kernel each, shipped to one session:\n");
  std::printf("  send_binary, objects 1-100       %8.2f ms   (reference)\n", firstSends);
  std::printf("  send_binary, objects 901-1000    %8.2f ms   %.2fx (goal <= 2x, "
              "linear growth: %s)\n",
              lastSends, lastSends / firstSends, verdict(lastSends / firstSends <= 2));
  std::printf("  memory per object                %8.1f KiB in the session, %.1f KiB "
              "in the client\n",
              sessionPerObject, clientPerObject);

  floodFigures(5, figures);

  if (!jsonPath.empty()) {
    figures["launch_vs_ping_pong"] = oneCoreRatio;
    figures["unix_launch_vs_unix_ping_pong"] = oneCoreUnixRatio;
    figures["tls_launch_vs_plaintext"] = worstTlsRatio;
    figures["multi_round_trip_us"] = multi;
    figures["multi_round_trip_vs_launch"] = multi / multiLaunch;
    figures["raw_bandwidth_mb_s"] = raw.median;
    figures["raw_stream_bandwidth_mb_s"] = stream.median;
    figures["rss_before_kib"] = before;
    figures["rss_after_kib"] = after;
    figures["launch_us_executor_server"] = onServer;
    figures["launch_us_catalyst_services"] = onCatalyst;
    figures["launch_us_llvm_jitlink_executor"] = onOrc;
    figures["launch_us_kernel_plain"] = debugKernels.plainUs;
    figures["launch_us_kernel_debug"] = debugKernels.debugUs;
    figures["launch_debug_vs_plain"] = debugKernels.ratio.median;
    figures["send_binary_ms_kernel_plain"] = debugKernels.plainShipMs;
    figures["send_binary_ms_kernel_debug"] = debugKernels.debugShipMs;
    figures["launches_per_s_1_thread"] = rate1;
    figures["launches_per_s_8_threads_1_session"] = rateShared;
    figures["launches_per_s_8_threads_8_sessions"] = rateOwn;
    figures["send_binary_ms_first_100"] = firstSends;
    figures["send_binary_ms_last_100"] = lastSends;
    figures["session_kib_per_object"] = sessionPerObject;
    figures["client_kib_per_object"] = clientPerObject;
    std::ofstream json(jsonPath);
    json << "{\n";
    size_t i = 0;
    for (auto &[key, value] : figures)
      json << "  \"" << key << "\": " << value
           << (++i < figures.size() ? ",\n" : "\n");
    json << "}\n";
  }
  check(client->close(), "close");
  check(local->close(), "close");
  check(secure->close(), "close");
  return 0;
}
