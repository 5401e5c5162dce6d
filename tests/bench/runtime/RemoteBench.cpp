//===- RemoteBench.cpp - ssh:// and slurm: figures ------------------------===//
#include "RemoteBench.h"

#include "ExecutorStudio/Support/Address.h"
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/SshConnect.h"
#include "SlurmCluster.h"
#include "SshServer.h"

#include "ExecutorStudio/Support/Subprocess.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace executor_studio::runtime;
using Clock = std::chrono::steady_clock;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObject = KERNELS_A_OBJECT;

double millis(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since)
      .count();
}
double micros(Clock::time_point since) {
  return std::chrono::duration<double, std::micro>(Clock::now() - since)
      .count();
}

struct Spread {
  double median, low, high;
};
Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

bool readAll(int fd, char *into, size_t size) {
  size_t got = 0;
  while (got < size) {
    ssize_t n = ::read(fd, into + got, size - got);
    if (n <= 0)
      return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

/// write(2) until all of `data` is out (standard output may be a pipe:
/// Socket.h's writeAll sends, for sockets).
bool writeOut(int fd, const char *data, size_t size) {
  while (size) {
    ssize_t n = ::write(fd, data, size);
    if (n <= 0)
      return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

/// The median of `iterations` ping-pongs of `request` bytes out and `reply`
/// bytes back with the echo peer on `fd`; negative when the peer is gone.
double pingPongMicros(int fd, size_t request, size_t reply, int iterations) {
  std::vector<char> out(request, 1), in(reply);
  std::vector<double> samples;
  for (int i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    if (!writeOut(fd, out.data(), out.size()) ||
        !readAll(fd, in.data(), in.size()))
      return -1;
    samples.push_back(micros(start));
  }
  return spread(samples).median;
}

/// The ping-pong's peer, started on the other side of ssh as the launches'
/// executor-server is: the same ssh command line (sshCommand) for `self` on
/// `lab`, with --echo-peer instead of --stdio, over a socket pair.
struct SshEchoPeer {
  executor_studio::Subprocess ssh;
  int fd = -1;
  ~SshEchoPeer() {
    if (fd >= 0)
      ::close(fd);
  }
  std::string start(const std::string &self, const std::string &controlDir,
                    const std::string &log, size_t request, size_t reply) {
    executor_studio::AddressParts parts;
    std::string problem = parseAddress("ssh://lab" + self, &parts);
    if (!problem.empty())
      return "the bench's own path as an ssh:// address " + problem;
    std::vector<std::string> args =
        sshCommand(parts, controlDir, std::chrono::seconds(5));
    args.pop_back(); // --stdio
    args.insert(args.end(), {"--echo-peer", std::to_string(request),
                             std::to_string(reply)});
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
      return "cannot make a socket pair";
    executor_studio::SubprocessOptions options;
    options.searchPath = true;
    options.in = executor_studio::Redirect::descriptor(fds[1]);
    options.out = executor_studio::Redirect::descriptor(fds[1]);
    options.err = executor_studio::Redirect::file(log);
    llvm::Error err = ssh.start(args, options);
    ::close(fds[1]);
    fd = fds[0];
    if (err)
      return llvm::toString(std::move(err));
    // Logged in and answering.
    if (pingPongMicros(fd, request, reply, 1) < 0)
      return "the ping-pong's peer did not answer: " +
             executor_test::readFile(log);
    return "";
  }
};

/// Standard error into `path` while it lives: the remote executor-servers'
/// log (a line a launch, which ssh and srun bring to this process's
/// standard error) stays out of the figures.
struct StandardErrorTo {
  int saved = -1;
  explicit StandardErrorTo(const std::string &path) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                    0600);
    if (fd < 0)
      return;
    std::fflush(stderr);
    saved = ::dup(2);
    ::dup2(fd, 2);
    ::close(fd);
  }
  ~StandardErrorTo() {
    if (saved < 0)
      return;
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
  }
};

void sshFigures(size_t requestBytes, size_t replyBytes, int iterations,
                int rounds, const std::string &self) {
  std::printf("\nssh:// (the bench's own sshd on 127.0.0.1, ssh -F its "
              "config, host alias lab)\n");
  executor_test::SshServer sshd;
  std::string why = sshd.start();
  if (!why.empty()) {
    std::printf("  skipped: %s\n", why.c_str());
    return;
  }
  setenv("EXECUTOR_SSH_CONFIG", sshd.config().c_str(), 1);
  std::string address = "ssh://lab" + kServer;

  // Session open: the first logs in and becomes the control master, the
  // second goes through it. A fresh control directory each round.
  std::vector<double> firsts, seconds, openRatios;
  for (int r = 0; r < std::max(3, rounds / 3); ++r) {
    std::string control = sshd.dir() + "/o" + std::to_string(r);
    setenv("EXECUTOR_SSH_CONTROL_DIR", control.c_str(), 1);
    double ms[2];
    for (double &t : ms) {
      auto start = Clock::now();
      auto client = ExecutorClient::open(address);
      t = millis(start);
      if (!client) {
        std::printf("  session open failed: %s\n",
                    llvm::toString(client.takeError()).c_str());
        return;
      }
    }
    sshd.exitControlMaster(control);
    firsts.push_back(ms[0]);
    seconds.push_back(ms[1]);
    openRatios.push_back(ms[0] / ms[1]);
  }
  Spread first = spread(firsts), second = spread(seconds),
         openRatio = spread(openRatios);
  std::printf("  first session open (ssh logs in, becomes the control "
              "master): %8.1f ms  [%.1f .. %.1f]\n",
              first.median, first.low, first.high);
  std::printf("  second session open (through the control master):       "
              "%8.1f ms  [%.1f .. %.1f]\n",
              second.median, second.low, second.high);
  std::printf("  first / second: %.1fx  [%.1f .. %.1f] over %zu rounds\n",
              openRatio.median, openRatio.low, openRatio.high,
              openRatios.size());

  // Launch against the raw ping-pong, both through one control master.
  std::string control = sshd.dir() + "/l";
  setenv("EXECUTOR_SSH_CONTROL_DIR", control.c_str(), 1);
  auto client = ExecutorClient::open(address);
  if (!client) {
    std::printf("  session open failed: %s\n",
                llvm::toString(client.takeError()).c_str());
    return;
  }
  if (llvm::Error err = (*client)->sendBinary(kObject)) {
    std::printf("  send_binary failed: %s\n",
                llvm::toString(std::move(err)).c_str());
    return;
  }
  SshEchoPeer peer;
  why = peer.start(self, control, sshd.dir() + "/echo.log", requestBytes,
                   replyBytes);
  if (!why.empty()) {
    std::printf("  ping-pong skipped: %s\n", why.c_str());
    return;
  }
  launchMicros(**client, iterations / 10 + 1); // warm
  pingPongMicros(peer.fd, requestBytes, replyBytes, iterations / 10 + 1);
  std::vector<double> launches, pings, ratios;
  for (int r = 0; r < rounds; ++r) {
    double ping = pingPongMicros(peer.fd, requestBytes, replyBytes, iterations);
    double launch = launchMicros(**client, iterations);
    if (ping <= 0)
      break;
    pings.push_back(ping);
    launches.push_back(launch);
    ratios.push_back(launch / ping);
  }
  if (ratios.empty()) {
    std::printf("  ping-pong's peer is gone: %s\n",
                executor_test::readFile(sshd.dir() + "/echo.log").c_str());
    return;
  }
  Spread launch = spread(launches), ping = spread(pings),
         ratio = spread(ratios);
  std::printf("  launch memref<4xf64> in and out over ssh://:  %8.1f us  "
              "[%.1f .. %.1f]\n",
              launch.median, launch.low, launch.high);
  std::printf("  raw ping-pong of %zu / %zu bytes through ssh: %8.1f us  "
              "[%.1f .. %.1f]\n",
              requestBytes, replyBytes, ping.median, ping.low, ping.high);
  std::printf("  launch / ping-pong: %.2fx  [%.2f .. %.2f] (goal <= 1.2x: "
              "%s), %d rounds of %d\n",
              ratio.median, ratio.low, ratio.high,
              ratio.median <= 1.2 ? "holds" : "missed", rounds, iterations);
  client->reset();
  sshd.exitControlMaster(control);
  for (int r = 0; r < std::max(3, rounds / 3); ++r)
    sshd.exitControlMaster(sshd.dir() + "/o" + std::to_string(r));
  unsetenv("EXECUTOR_SSH_CONFIG");
  unsetenv("EXECUTOR_SSH_CONTROL_DIR");
}

void slurmFigures(int rounds) {
  std::printf("\nslurm: (the bench's own one-node Slurm on this host)\n");
  executor_test::SlurmCluster cluster;
  std::string why = cluster.start();
  if (!why.empty()) {
    std::printf("  skipped: %s\n", why.c_str());
    return;
  }
  std::string address = "slurm:partition=debug,time=5,server=" + kServer;
  std::vector<double> opens, ships, launches, totals, bare, ratios;
  std::vector<HostMemRef> in = {HostMemRef::of<double>({4}, {1, 2, 3, 4})};
  for (int r = 0; r < std::max(3, rounds / 3); ++r) {
    // The scheduler's own floor: a step that runs nothing.
    auto srunStart = Clock::now();
    std::string said = cluster.output(
        {"srun", "--nodes=1", "--ntasks=1", "--quiet", "true"});
    double srunMs = millis(srunStart);
    auto start = Clock::now();
    auto client = ExecutorClient::open(address);
    double opened = millis(start);
    if (!client) {
      std::printf("  session open failed: %s\n",
                  llvm::toString(client.takeError()).c_str());
      return;
    }
    if (llvm::Error err = (*client)->sendBinary(kObject)) {
      std::printf("  send_binary failed: %s\n",
                  llvm::toString(std::move(err)).c_str());
      return;
    }
    double shipped = millis(start);
    auto out = (*client)->launch("k", kObject, in, {{1, 8}});
    double launched = millis(start);
    if (!out || (*out)[0].as<double>()[3] != 8) {
      std::printf("  the first launch failed%s\n",
                  out ? "" : (": " + llvm::toString(out.takeError())).c_str());
      return;
    }
    opens.push_back(opened);
    ships.push_back(shipped - opened);
    launches.push_back(launched - shipped);
    totals.push_back(launched);
    bare.push_back(srunMs);
    ratios.push_back(launched / srunMs);
    llvm::consumeError((*client)->close());
  }
  Spread open = spread(opens), ship = spread(ships), launch = spread(launches),
         total = spread(totals), floor = spread(bare), ratio = spread(ratios);
  std::printf("  srun to the first launch's result:        %8.1f ms  "
              "[%.1f .. %.1f]\n",
              total.median, total.low, total.high);
  std::printf("    of which the session open (srun, the step, ORC's setup): "
              "%.1f ms, send_binary %.1f ms, the launch %.2f ms\n",
              open.median, ship.median, launch.median);
  std::printf("  srun --nodes=1 --ntasks=1 true:           %8.1f ms  "
              "[%.1f .. %.1f]\n",
              floor.median, floor.low, floor.high);
  std::printf("  first launch / srun true: %.2fx  [%.2f .. %.2f] over %zu "
              "rounds (shown)\n",
              ratio.median, ratio.low, ratio.high, ratios.size());
}
} // namespace

int benchRemote(size_t requestBytes, size_t replyBytes, int iterations,
                int rounds, const std::string &self) {
  std::printf("executor-runtime-bench --remote: ssh:// and slurm: on this "
              "host (figures of one run; ratios to references of the same "
              "run)\n");
  std::string log =
      "/tmp/executor-runtime-bench-remote-" + std::to_string(getpid()) + ".log";
  std::fflush(stdout);
  {
    StandardErrorTo remoteLog(log);
    sshFigures(requestBytes, replyBytes, iterations, rounds, self);
    std::fflush(stdout);
    slurmFigures(rounds);
  }
  std::printf("\n(the remote executor-servers' log: %s)\n", log.c_str());
  return 0;
}

int runEchoPeer(size_t requestBytes, size_t replyBytes) {
  std::vector<char> in(requestBytes), out(replyBytes, 2);
  while (readAll(0, in.data(), in.size()))
    if (!writeOut(1, out.data(), out.size()))
      return 1;
  return 0;
}
