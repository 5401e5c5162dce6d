//===- executor-server.cpp - the process that runs kernels ----------------===//
//
//   executor-server --bind 127.0.0.1:0 [--bind unix:PATH] [--bind ...]
//                   [--unix-mode 0600] [--plugin lib.so]
//                   [--allow-remote --token-file FILE] [--log=all|sessions]
//                   [--asset-root DIR] [--services=all|executor-studio|catalyst]
//
// Listens on each --bind address and prints `listening on HOST:PORT` (or
// `listening on unix:PATH`) once it accepts connections. A unix:PATH socket
// is created with --unix-mode (default 0600, only this user), which is its
// access control: no token is asked there. A stale socket file at PATH is
// replaced, one that a live server listens on is refused, and the file is
// removed when the server stops. On such a socket kernels' blocks of 64 KiB
// and more come from a heap in shared memory (KernelHeap.h), so results
// cross without a copy; --no-kernel-heap leaves kernels libc's allocator
// (for kernels that hand their blocks to libc functions that reallocate or
// free them, such as getline). Every connection is served by a forked child
// running ORC's SimpleRemoteEPCServer, so a kernel that crashes ends only
// its own session. Each session gets a private asset directory under
// --asset-root (default $TMPDIR, else /tmp), its working directory, removed
// when the session process ends. SIGINT/SIGTERM stop the listener and its
// sessions. Every session publishes this project's executor services
// (__executor_studio_*, LaunchService, AssetService) and Catalyst's
// (catalyst_remote_*, CatalystServices), so Catalyst's runtime works
// against it too; --services=catalyst publishes only Catalyst's, as
// catalyst-executor does (tests and benchmarks use it to stand in for
// Catalyst's executor).
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/TcpTransport.h"
#include "ExecutorRuntime/UnixSocket.h"
#include "ExecutorRuntime/Wire.h"
#include "AssetService.h"
#include "CatalystServices.h"
#include "CrashReport.h"
#include "KernelHeap.h"
#include "LaunchService.h"

#include "llvm/ExecutionEngine/Orc/Shared/SimpleRemoteEPCUtils.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/SimpleExecutorMemoryManager.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/SimpleRemoteEPCServer.h"
#include "llvm/Support/Error.h"

#include <arpa/inet.h>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <malloc.h>
#include <fstream>
#include <map>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace llvm::orc;
using namespace executor_runtime;

namespace {
int signalPipe[2] = {-1, -1};

void onSignal(int sig) {
  char c = static_cast<char>(sig);
  (void)!write(signalPipe[1], &c, 1);
}

[[noreturn]] void usage(const std::string &problem) {
  std::fprintf(stderr,
               "executor-server: %s\n"
               "usage: executor-server --bind HOST:PORT|unix:PATH [--bind ...] "
               "[--unix-mode 0600] [--no-kernel-heap] "
               "[--plugin LIB.so] [--allow-remote --token-file FILE] "
               "[--log=all|sessions] [--asset-root DIR] "
               "[--services=all|executor-studio|catalyst]\n",
               problem.c_str());
  std::exit(2);
}

bool isLoopback(const sockaddr_storage &addr) {
  if (addr.ss_family == AF_INET) {
    auto *in = reinterpret_cast<const sockaddr_in *>(&addr);
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  if (addr.ss_family == AF_INET6) {
    auto *in6 = reinterpret_cast<const sockaddr_in6 *>(&addr);
    return IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
  }
  return false;
}

std::string describe(const sockaddr_storage &addr) {
  char host[NI_MAXHOST], port[NI_MAXSERV];
  if (getnameinfo(reinterpret_cast<const sockaddr *>(&addr), sizeof(addr),
                  host, sizeof(host), port, sizeof(port),
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return "?";
  if (addr.ss_family == AF_INET6)
    return "[" + std::string(host) + "]:" + port;
  return std::string(host) + ":" + port;
}

/// The mode of --bind unix:PATH sockets (--unix-mode).
unsigned unixMode = 0600;

/// Binds and listens on `address`; exits with a message on failure.
int listenOn(const std::string &address, bool allowRemote) {
  std::string host, port, error;
  if (isUnixAddress(address, &host)) {
    int fd = listenUnix(host, unixMode, error);
    if (fd < 0) {
      std::fprintf(stderr, "executor-server: %s\n", error.c_str());
      std::exit(1);
    }
    return fd;
  }
  if (!splitAddress(address, host, port, error))
    usage(error);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo *results = nullptr;
  if (int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &results))
    usage("cannot resolve " + address + ": " + gai_strerror(rc));
  int fd = -1;
  for (addrinfo *ai = results; ai && fd < 0; ai = ai->ai_next) {
    sockaddr_storage addr{};
    std::memcpy(&addr, ai->ai_addr, ai->ai_addrlen);
    if (!allowRemote && !isLoopback(addr))
      usage("refusing to listen on " + address +
            ", which is not a loopback address: pass --allow-remote and "
            "--token-file to accept remote sessions");
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0)
      continue;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 64) < 0) {
      error = std::strerror(errno);
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(results);
  if (fd < 0) {
    std::fprintf(stderr, "executor-server: cannot listen on %s: %s\n",
                 address.c_str(), error.c_str());
    std::exit(1);
  }
  return fd;
}

/// Runs wrapper calls on a pool of threads that stay alive between calls
/// (ORC's ThreadDispatcher starts a thread per call). A call never waits
/// for a busy thread: when every worker is busy a new one starts, so an
/// await that blocks never holds up the launches that follow it.
class PoolDispatcher : public SimpleRemoteEPCServer::Dispatcher {
public:
  void dispatch(unique_function<void()> work) override {
    std::lock_guard<std::mutex> lock(mutex);
    queue.push_back(std::move(work));
    ++outstanding;
    if (queue.size() > idle)
      workers.emplace_back([this] { run(); });
    else
      wake.notify_one();
  }

  void shutdown() override {
    std::unique_lock<std::mutex> lock(mutex);
    running = false;
    wake.notify_all();
    done.wait(lock, [&] { return outstanding == 0; });
    lock.unlock();
    for (std::thread &t : workers)
      t.join();
  }

private:
  void run() {
    KernelThreadStack stack; // kernels run on this thread
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      ++idle;
      wake.wait(lock, [&] { return !queue.empty() || !running; });
      --idle;
      if (queue.empty())
        return;
      unique_function<void()> work = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      work();
      lock.lock();
      if (--outstanding == 0)
        done.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable wake, done;
  std::deque<unique_function<void()>> queue;
  std::vector<std::thread> workers;
  size_t idle = 0, outstanding = 0;
  bool running = true;
};

/// Which executor services a session publishes.
bool publishOurs = true, publishCatalyst = true;
/// Whether Unix-socket sessions give kernels the shared kernel heap.
bool useKernelHeap = true;

/// Runs one session in this (forked) process until the client goes.
int serveSession(int fd, bool unixSocket, const std::string &assetDirectory,
                 const std::string &assetProblem) {
  enterAssetDirectory(assetDirectory, assetProblem);
  // Large launches move tens of MiB per call through buffers that are freed
  // right after (the transport's message, the kernel's results, the reply).
  // glibc would hand each back to the kernel with munmap and fault every
  // page in again on the next call; keeping them in the heap for reuse makes
  // big transfers several times faster. The session's memory stays at its
  // peak, and is returned when the session ends.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1); // thread arenas cap out at 64 MiB and mmap the rest
  if (publishCatalyst)
    startCatalystRuntime();
  TcpTransport *transport = nullptr;
  TcpTransport::Options options;
  options.unixSocket = unixSocket;
  options.executorSide = true;
  if (publishOurs)
    options.directHandler = serveDirectCall;
  // Kernels' large results in shared memory the client maps.
  std::string heapProblem;
  bool wantHeap = unixSocket && publishOurs && useKernelHeap;
  bool kernelHeap = wantHeap && startKernelHeap(heapProblem);
  if (wantHeap && !kernelHeap)
    logEvent("results are copied: " + heapProblem);
  auto server = SimpleRemoteEPCServer::Create<TcpTransport>(
      [&](SimpleRemoteEPCServer::Setup &s) -> Error {
        s.setDispatcher(std::make_unique<PoolDispatcher>());
        s.bootstrapSymbols() = SimpleRemoteEPCServer::defaultBootstrapSymbols();
        if (publishOurs) {
          s.bootstrapSymbols()[kLaunchWrapperName] =
              ExecutorAddr::fromPtr(&executorStudioLaunch);
          s.bootstrapSymbols()[kNoteWrapperName] =
              ExecutorAddr::fromPtr(&executorStudioNote);
          s.bootstrapSymbols()[kLaunchAsyncWrapperName] =
              ExecutorAddr::fromPtr(&executorStudioLaunchAsync);
          s.bootstrapSymbols()[kAwaitWrapperName] =
              ExecutorAddr::fromPtr(&executorStudioAwait);
          s.bootstrapSymbols()[kAllocWrapperName] =
              ExecutorAddr::fromPtr(&executorStudioAlloc);
          s.bootstrapSymbols()[kFreeWrapperName] =
              ExecutorAddr::fromPtr(&executorStudioFree);
          s.bootstrapSymbols()[kInvokeWrapperName] =
              ExecutorAddr::fromPtr(&executorStudioInvoke);
          s.bootstrapSymbols()[kStoreAssetWrapperName] =
              ExecutorAddr::fromPtr(&executorStudioStoreAsset);
          // Launches may come as the transport's direct calls.
          s.bootstrapSymbols()[kDirectCallsSymbol] = ExecutorAddr(1);
          if (kernelHeap) {
            void *allocators[] = {
                reinterpret_cast<void *>(&kernelMalloc),
                reinterpret_cast<void *>(&kernelFree),
                reinterpret_cast<void *>(&kernelCalloc),
                reinterpret_cast<void *>(&kernelRealloc),
                reinterpret_cast<void *>(&kernelAlignedAlloc),
                reinterpret_cast<void *>(&kernelPosixMemalign)};
            for (size_t i = 0; i < std::size(allocators); ++i)
              s.bootstrapSymbols()[kKernelAllocators[i][1]] =
                  ExecutorAddr::fromPtr(allocators[i]);
          }
        }
        if (publishCatalyst)
          addCatalystServices(s.bootstrapSymbols());
        s.services().push_back(
            std::make_unique<rt_bootstrap::SimpleExecutorMemoryManager>());
        return Error::success();
      },
      fd, &transport, std::move(options));
  if (!server) {
    logEvent("error: " + toString(server.takeError()));
    return 1;
  }
  installCrashReports(transport);
  Error err = (*server)->waitForDisconnect();
  if (publishCatalyst)
    stopCatalystRuntime();
  if (err) {
    logEvent("error: " + toString(std::move(err)));
    return 1;
  }
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> binds, plugins;
  bool allowRemote = false;
  std::string tokenFile;
  std::string assetRoot;
  if (const char *tmp = std::getenv("TMPDIR"); tmp && *tmp)
    assetRoot = tmp;
  else
    assetRoot = "/tmp";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string &name) -> std::string {
      if (arg.rfind(name + "=", 0) == 0)
        return arg.substr(name.size() + 1);
      if (i + 1 >= argc)
        usage(name + " needs a value");
      return argv[++i];
    };
    if (arg == "--bind" || arg.rfind("--bind=", 0) == 0)
      binds.push_back(value("--bind"));
    else if (arg == "--plugin" || arg.rfind("--plugin=", 0) == 0)
      plugins.push_back(value("--plugin"));
    else if (arg == "--token-file" || arg.rfind("--token-file=", 0) == 0)
      tokenFile = value("--token-file");
    else if (arg == "--asset-root" || arg.rfind("--asset-root=", 0) == 0)
      assetRoot = value("--asset-root");
    else if (arg == "--unix-mode" || arg.rfind("--unix-mode=", 0) == 0) {
      std::string mode = value("--unix-mode");
      if (mode.empty() || mode.size() > 4 ||
          mode.find_first_not_of("01234567") != std::string::npos)
        usage("--unix-mode takes an octal file mode such as 0600 or 0660, "
              "not '" + mode + "'");
      unixMode = std::stoul(mode, nullptr, 8);
    }
    else if (arg == "--no-kernel-heap")
      useKernelHeap = false;
    else if (arg == "--allow-remote")
      allowRemote = true;
    else if (arg == "--log=sessions")
      logLaunches = false;
    else if (arg == "--log=all")
      logLaunches = true;
    else if (arg.rfind("--services=", 0) == 0) {
      std::string services = arg.substr(11);
      if (services != "all" && services != "executor-studio" &&
          services != "catalyst")
        usage("unknown --services '" + services +
              "' (all, executor-studio or catalyst)");
      publishOurs = services != "catalyst";
      publishCatalyst = services != "executor-studio";
    }
    else if (arg == "--help" || arg == "-h")
      usage("runs kernels for executor sessions");
    else
      usage("unknown argument '" + arg + "'");
  }
  if (binds.empty())
    binds.push_back("127.0.0.1:0");
  if (allowRemote && tokenFile.empty())
    usage("--allow-remote needs --token-file: remote clients must present a "
          "shared token");
  std::string token;
  if (!tokenFile.empty()) {
    std::ifstream in(tokenFile);
    if (!in || !std::getline(in, token) || token.empty())
      usage("cannot read a token from " + tokenFile);
  }
  for (const std::string &plugin : plugins)
    if (!dlopen(plugin.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      std::fprintf(stderr, "executor-server: cannot load plugin %s: %s\n",
                   plugin.c_str(), dlerror());
      return 1;
    }

  if (pipe2(signalPipe, O_CLOEXEC) != 0)
    return 1;
  struct sigaction sa{};
  sa.sa_handler = onSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGCHLD, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  std::vector<pollfd> fds;
  fds.push_back({signalPipe[0], POLLIN, 0});
  // Bind everything before announcing anything: a refused address stops the
  // server before any client sees it listening.
  std::vector<int> listeners;
  std::map<int, std::string> unixPaths; // by listening socket
  for (const std::string &bind : binds) {
    listeners.push_back(listenOn(bind, allowRemote));
    std::string path;
    if (isUnixAddress(bind, &path))
      unixPaths[listeners.back()] = path;
  }
  for (int fd : listeners) {
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len);
    std::printf("listening on %s\n",
                unixPaths.count(fd) ? (kUnixPrefix + unixPaths[fd]).c_str()
                                    : describe(addr).c_str());
    fds.push_back({fd, POLLIN, 0});
  }
  std::fflush(stdout);

  sessionLabel = "listener";
  struct Session {
    std::string label;
    std::string assets; // removed when the session process ends
  };
  std::map<pid_t, Session> sessions;
  unsigned nextSession = 1;
  bool running = true;
  while (running) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (fds[0].revents & POLLIN) {
      char sig = 0;
      while (read(signalPipe[0], &sig, 1) == 1 && sig != SIGCHLD) {
        running = false;
        break;
      }
      int status = 0;
      pid_t pid;
      while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        std::string label = sessions[pid].label;
        removeAssetDirectory(sessions[pid].assets);
        sessions.erase(pid);
        if (WIFSIGNALED(status))
          logEvent(label + " ended by signal " +
                   std::to_string(WTERMSIG(status)) + " (" +
                   strsignal(WTERMSIG(status)) + ") in a kernel");
        else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
          logEvent(label + " ended with status " +
                   std::to_string(WEXITSTATUS(status)));
        else
          logEvent(label + " closed");
      }
    }
    for (size_t i = 1; i < fds.size() && running; ++i) {
      if (!(fds[i].revents & POLLIN))
        continue;
      sockaddr_storage peer{};
      socklen_t len = sizeof(peer);
      int fd = accept4(fds[i].fd, reinterpret_cast<sockaddr *>(&peer), &len,
                       SOCK_CLOEXEC);
      if (fd < 0)
        continue;
      bool overUnix = unixPaths.count(fds[i].fd) != 0;
      if (!overUnix)
        tuneSocket(fd);
      std::string label =
          "session " + std::to_string(nextSession++) + " (" +
          (overUnix ? kUnixPrefix + unixPaths[fds[i].fd] : describe(peer)) +
          ")";
      std::string assetProblem;
      std::string assets = makeAssetDirectory(assetRoot, assetProblem);
      if (assets.empty())
        logEvent("error: " + label + ": " + assetProblem);
      pid_t pid = fork();
      if (pid == 0) {
        for (const pollfd &p : fds)
          close(p.fd);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGCHLD, SIG_DFL);
        sessionLabel = label;
        // A Unix socket's file mode decides who connects: no token there.
        if (!token.empty() && !overUnix) {
          std::string line;
          if (!readLine(fd, line, std::chrono::seconds(10)) ||
              line != "EXECUTOR-TOKEN " + token) {
            logEvent("refused: wrong or missing token");
            _exit(3);
          }
          writeAll(fd, "OK\n", 3);
        }
        logEvent("opened");
        int status = serveSession(fd, overUnix, assets, assetProblem);
        // The listener removes it too when it reaps this process (which
        // covers a crash); this covers a listener that is gone.
        removeAssetDirectory(assets);
        _exit(status);
      }
      close(fd);
      if (pid > 0) {
        sessions[pid] = {label, assets};
      } else {
        logEvent("error: cannot fork for " + label);
        removeAssetDirectory(assets);
      }
    }
  }
  for (auto &[pid, session] : sessions)
    kill(pid, SIGTERM);
  for (auto &[pid, session] : sessions) {
    waitpid(pid, nullptr, 0);
    removeAssetDirectory(session.assets);
    logEvent(session.label + " closed (server stopping)");
  }
  for (auto &[fd, path] : unixPaths)
    unlink(path.c_str());
  logEvent("stopped");
  return 0;
}
