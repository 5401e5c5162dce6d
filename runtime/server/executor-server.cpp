//===- executor-server.cpp - the process that runs kernels ----------------===//
//
//   executor-server --bind 127.0.0.1:0 [--bind unix:PATH] [--bind ...]
//                   [--unix-mode 0600] [--no-kernel-heap] [--plugin lib.so]
//                   [--allow-remote --tls-cert FILE --tls-key FILE
//                    --token-file FILE] [limits] [--run-as USER]
//                   [--log=all|sessions] [--asset-root DIR]
//                   [--services=all|executor-studio|catalyst]
//   executor-server --stdio [limits] [--run-as USER] [...]
//   (--help describes every option)
//
// --stdio serves exactly one session on standard input and output (what an
// ssh:// address runs on the remote host) and listens nowhere: the session
// starts as a listener's connection does, the log goes to standard error,
// and the end of standard input ends the session, its processes and then
// this process.
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
// Started as catalyst-executor (a link to this binary, beside it), it is
// the executor Catalyst's launcher (catalyst.executor.Executor) starts:
// only the launcher's flags (--bind=HOST:PORT, --plugin=PATH), loopback or
// unix:PATH only, no token, Catalyst's services only, and `Listening on
// HOST:PORT` on standard error (ServerFlags.h, parseCatalystExecutorFlags).
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Stream.h"
#include "ExecutorRuntime/TcpTransport.h"
#include "ExecutorRuntime/TlsStream.h"
#include "ExecutorRuntime/UnixSocket.h"
#include "ExecutorRuntime/Wire.h"
#include "Acceptor.h"
#include "AssetService.h"
#include "Auth.h"
#include "Limits.h"
#include "Privileges.h"
#include "CatalystServices.h"
#include "CrashReport.h"
#include "DebugSupport.h"
#include "KernelHeap.h"
#include "LaunchService.h"
#include "MemoryCgroup.h"
#include "Sandbox.h"
#include "ServerFlags.h"
#include "SetupAhead.h"
#include "StdioAcceptor.h"

#include "llvm/ExecutionEngine/Orc/Shared/SimpleRemoteEPCUtils.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/SimpleExecutorMemoryManager.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/SimpleRemoteEPCServer.h"
#include "llvm/Support/Error.h"

#include <openssl/crypto.h>

#include <arpa/inet.h>
#include <algorithm>
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
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace llvm::orc;
using namespace executor_studio::runtime;

namespace {
int signalPipe[2] = {-1, -1};

void onSignal(int sig) {
  char c = static_cast<char>(sig);
  (void)!write(signalPipe[1], &c, 1);
}

/// Runs wrapper calls on a pool of threads that stay alive between calls
/// (ORC's ThreadDispatcher starts a thread per call). A call never waits
/// for a busy thread: when every worker is busy a new one starts, so an
/// await that blocks never holds up the launches that follow it.
class PoolDispatcher : public SimpleRemoteEPCServer::Dispatcher {
public:
  void dispatch(unique_function<void()> work) override {
    markSessionStarted(); // the client's first call ends the handshake
    std::lock_guard<std::mutex> lock(mutex);
    // Counted until it is done, its reply sent (a stopping session waits).
    queue.push_back([serving = std::make_unique<CallInFlight>(),
                     work = std::move(work)]() mutable { work(); });
    ++outstanding;
    if (queue.size() > idle) {
      std::string error;
      if (startThread([this] { run(); }, error))
        ++workers;
      else if (workers == 0)
        endSessionWithError(error + " for a call");
      // else: a busy worker takes it when it is done.
    } else {
      wake.notify_one();
    }
  }

  void shutdown() override {
    std::unique_lock<std::mutex> lock(mutex);
    running = false;
    wake.notify_all();
    // The client has gone: a kernel still running after a moment ends the
    // session (nobody waits for its results). Direct calls run on the
    // transport's threads, not here: the table of running kernels counts
    // them.
    std::string kernel;
    int64_t ran = 0;
    auto quiet = [&] {
      return outstanding == 0 && !longestRunningKernel(kernel, ran);
    };
    auto giveUp = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(500);
    while (!quiet() && std::chrono::steady_clock::now() < giveUp)
      done.wait_for(lock, std::chrono::milliseconds(10));
    if (!quiet()) {
      logEvent("the client has gone while " +
               (longestRunningKernel(kernel, ran) ? "kernel " + kernel
                                                  : std::string("a call")) +
               " still runs: ending the session");
      exitSession(0);
    }
    exited.wait(lock, [&] { return workers == 0; });
  }

private:
  void run() {
    KernelThreadStack stack; // kernels run on this thread
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      ++idle;
      wake.wait(lock, [&] { return !queue.empty() || !running; });
      --idle;
      if (queue.empty()) {
        if (--workers == 0)
          exited.notify_all();
        return;
      }
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
  std::condition_variable wake, done, exited;
  std::deque<unique_function<void()>> queue;
  size_t workers = 0; // detached (startThread): they may fail to start
  size_t idle = 0, outstanding = 0;
  bool running = true;
};

/// Which executor services a session publishes.
bool publishOurs = true, publishCatalyst = true;
/// Whether Unix-socket sessions give kernels the shared kernel heap.
bool useKernelHeap = true;

/// A session's dispatcher, bootstrap symbols and services (Service.h):
/// each publishes its own bootstrap symbols when the server asks it.
void addSessionServices(SimpleRemoteEPCServer::Setup &s, bool kernelHeap) {
  s.setDispatcher(std::make_unique<PoolDispatcher>());
  s.bootstrapSymbols() = SimpleRemoteEPCServer::defaultBootstrapSymbols();
  auto &services = s.services();
  services.push_back(makeDebugSupportService());
  if (publishOurs) {
    services.push_back(makeLaunchService());
    services.push_back(makeAssetService());
    if (kernelHeap)
      services.push_back(makeKernelHeapService());
  }
  if (publishCatalyst)
    services.push_back(makeCatalystServices());
  services.push_back(
      std::make_unique<rt_bootstrap::SimpleExecutorMemoryManager>());
}

/// The session server the listener makes at start for connections that
/// need no authentication (SetupAhead.h): every such session inherits it.
struct AheadServer {
  std::unique_ptr<SimpleRemoteEPCServer> server;
  SetupAhead *transport = nullptr;
  bool kernelHeap = false;
};
/// The session's PID (kSessionPidAddressSymbol): set in the session.
uint64_t aheadSessionPid = 0;
/// The listener's AheadServers at its exit: never served there, so nothing
/// of theirs to shut down; kept (reachable) rather than destroyed.
SimpleRemoteEPCServer *unservedAtExit[2];

/// In the listener: an AheadServer, with the kernel heap's service or not;
/// "" or the problem.
std::string prepareAheadServer(AheadServer &ahead, bool kernelHeap) {
  ahead.kernelHeap = kernelHeap;
  auto server = SimpleRemoteEPCServer::Create<SetupAhead>(
      [&](SimpleRemoteEPCServer::Setup &s) -> Error {
        addSessionServices(s, kernelHeap);
        s.bootstrapSymbols()[kSessionPidAddressSymbol] =
            ExecutorAddr::fromPtr(&aheadSessionPid);
        return Error::success();
      },
      &ahead.transport);
  if (!server)
    return toString(server.takeError());
  ahead.server = std::move(*server);
  if (ahead.transport->setupFrame().empty())
    return "no Setup message was made";
  return "";
}

/// Runs one session in this (forked) process until the client goes.
int serveSession(std::unique_ptr<Stream> stream, uint64_t memoryLimit, const std::string &assetDirectory,
                 const std::string &assetProblem) {
  // The session entered its asset directory before it dropped privileges.
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
  options.executorSide = true;
  if (publishOurs)
    options.directHandler = serveDirectCall;
  // Kernels' large results in shared memory the client maps (as large as
  // the session's memory limit at most: RLIMIT_DATA does not count it).
  std::string heapProblem;
  bool wantHeap = stream->passesDescriptors() && publishOurs && useKernelHeap;
  bool kernelHeap = wantHeap && startKernelHeap(memoryLimit, heapProblem);
  if (wantHeap && !kernelHeap)
    logEvent("results are copied: " + heapProblem);
  // The address space, the kernel heap's included: it counts what
  // RLIMIT_DATA does not (MAP_SHARED mappings).
  if (std::string problem = limitSessionAddressSpace(memoryLimit);
      !problem.empty())
    logEvent("error: " + problem);
  auto setup = [&](SimpleRemoteEPCServer::Setup &s) -> Error {
        addSessionServices(s, kernelHeap);
        s.bootstrapSymbols()[kSessionPidSymbol] =
            ExecutorAddr(static_cast<uint64_t>(sessionHostPid()));
        return Error::success();
      };
  auto server = SimpleRemoteEPCServer::Create<TcpTransport>(
      setup, std::move(stream), &transport, std::move(options));
  if (!server) {
    std::string error = toString(server.takeError());
    std::string refusal = TcpTransport::lastRefusal();
    logEvent("error: " + (refusal.empty() ? error : refusal));
    return 1;
  }
  installCrashReports(transport);
  Error err = (*server)->waitForDisconnect();
  // The transport goes with `server`: first the watchdog, whose hangups
  // send on it, and the crash reports.
  stopSessionWatchdog();
  stopCrashReports();
  if (publishCatalyst)
    stopCatalystRuntime();
  if (err) {
    logEvent("error: " + toString(std::move(err)));
    return 1;
  }
  return 0;
}

/// Runs one session whose Setup the listener sent (SetupAhead.h), on the
/// server it inherited, until the client goes.
int serveAheadSession(std::unique_ptr<Stream> stream, AheadServer &ahead,
                      uint64_t memoryLimit) {
  // As serveSession does (see there).
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1);
  if (publishCatalyst)
    startCatalystRuntime();
  if (ahead.kernelHeap) {
    std::string heapProblem;
    if (!startKernelHeap(memoryLimit, heapProblem))
      logEvent("results are copied: " + heapProblem);
  }
  if (std::string problem = limitSessionAddressSpace(memoryLimit);
      !problem.empty())
    logEvent("error: " + problem);
  aheadSessionPid = static_cast<uint64_t>(sessionHostPid());
  TcpTransport *transport = nullptr;
  TcpTransport::Options options;
  options.executorSide = true;
  options.setupSent = true;
  if (publishOurs)
    options.directHandler = serveDirectCall;
  auto created = TcpTransport::Create(ahead.transport->client(),
                                      std::move(stream), &transport,
                                      std::move(options));
  if (!created) {
    logEvent("error: " + toString(created.takeError()));
    return 1;
  }
  ahead.transport->attach(std::move(*created));
  if (Error err = transport->start()) {
    logEvent("error: " + toString(std::move(err)));
    return 1;
  }
  installCrashReports(transport);
  Error err = ahead.server->waitForDisconnect();
  stopSessionWatchdog();
  stopCrashReports();
  if (publishCatalyst)
    stopCatalystRuntime();
  if (err) {
    std::string refusal = TcpTransport::lastRefusal();
    logEvent("error: " + (refusal.empty() ? toString(std::move(err))
                                          : (consumeError(std::move(err)),
                                             refusal)));
    return 1;
  }
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  // Started as catalyst-executor (a link to this binary): Catalyst's
  // launcher's flags and trust model (ServerFlags.h).
  ServerFlags flags =
      invokedAsCatalystExecutor(argv[0])
          ? parseCatalystExecutorFlags(argc, argv, EXECUTOR_STUDIO_VERSION)
          : parseServerFlags(argc, argv, EXECUTOR_STUDIO_VERSION);
  // --stdio: the session's descriptors, taken before anything is printed.
  int stdioIn = -1, stdioOut = -1;
  std::unique_ptr<Acceptor> stdio;
  if (flags.stdio)
    stdio = takeStandardStreams(stdioIn, stdioOut);
  useKernelHeap = flags.useKernelHeap;
  logLaunches = flags.logLaunches;
  setDebugWait(flags.debugWait);
  publishOurs = flags.publishOurs;
  publishCatalyst = flags.publishCatalyst;
  const std::vector<std::string> &binds = flags.binds;
  const std::string &tokenFile = flags.tokenFile;
  bool allowRemote = flags.allowRemote;
  bool useTls = !flags.tlsCert.empty();
  SessionLimits limits = flags.limits;
  const std::string &assetRoot = flags.assetRoot;
  std::string token;
  if (!tokenFile.empty()) {
    std::string problem = loadTokenFile(tokenFile, token);
    if (!problem.empty())
      flagError(problem);
  }
  std::unique_ptr<TlsServerContext> tlsContext;
  if (useTls) {
    std::string problem;
    tlsContext = TlsServerContext::load(flags.tlsCert, flags.tlsKey, problem);
    if (!tlsContext)
      flagError(problem);
  }
  RunAs runAs;
  if (std::string problem =
          resolveRunAs(flags.runAsUser, flags.runAsNamed, runAs);
      !problem.empty())
    flagError(problem);
  // What sessions get of the sandbox; --require-isolation: all of it, or
  // no start (before anything listens).
  std::vector<std::string> missingParts;
  std::string noFilterWhy;
  bool syscallFilter = syscallFilterWorks(flags.allowedCalls, noFilterWhy);
  SessionNamespaces namespaces =
      probeSessionNamespaces(runAs, flags.ownNetwork);
  if (!namespaces.namespaces && flags.ownNetwork) {
    // A machine that gives the other namespaces but no network namespace:
    // those, and the start-up report says what is missing.
    SessionNamespaces withoutNetwork = probeSessionNamespaces(runAs, false);
    if (withoutNetwork.namespaces) {
      withoutNetwork.noNetworkWhy = namespaces.why;
      namespaces = withoutNetwork;
    }
  }
  // Memory counted where the pages are (MemoryCgroup.h): a group of the
  // session's own, and SysV limits in its own IPC namespace.
  MemoryCgroups memoryGroups;
  std::string noIpcLimitsWhy = "--max-session-memory 0";
  bool ipcLimits = false;
  if (limits.sessionMemory) {
    memoryGroups = setUpMemoryCgroups();
    if (namespaces.namespaces)
      ipcLimits = ipcLimitsWork(limits.sessionMemory, noIpcLimitsWhy);
  }
  std::string isolationLine = describeIsolation(
      runAs.drop, syscallFilter, noFilterWhy, namespaces, limits.sessionMemory,
      limits.sessionProcesses, memoryGroups,
      ipcLimits ? std::string() : noIpcLimitsWhy, missingParts);
  std::string isolationMissing;
  for (const std::string &part : missingParts)
    isolationMissing += (isolationMissing.empty() ? "" : "; ") + part;
  if (flags.requireIsolation && !isolationMissing.empty())
    flagError("--require-isolation: sessions would lack " + isolationMissing);
  // Sessions work in their asset directory (entered before the drop); only
  // kernels that use its full path ($EXECUTOR_ASSET_DIR) need to reach it.
  std::string unreachableAssets = reachableBy(assetRoot, runAs);
  TcpTransport::setMaxMessageSize(limits.maxMessageSize);
  ServerSecurity security{tlsContext.get(), token};
  for (const std::string &plugin : flags.plugins)
    if (!dlopen(plugin.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      std::fprintf(stderr, "%s: cannot load plugin %s: %s\n", programName(),
                   plugin.c_str(), dlerror());
      return 1;
    }

  if (pipe2(signalPipe, O_CLOEXEC) != 0)
    return 1;
  fcntl(signalPipe[0], F_SETFL, O_NONBLOCK);
  fcntl(signalPipe[1], F_SETFL, O_NONBLOCK);
  struct sigaction sa{};
  sa.sa_handler = onSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
  sigaction(SIGCHLD, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  std::vector<pollfd> fds;
  fds.push_back({signalPipe[0], POLLIN, 0});
  constexpr size_t kFirstListener = 1;
  // Bind everything before announcing anything: a refused address stops the
  // server before any client sees it listening. Each listener knows its
  // kind (Acceptor.h); nothing below asks.
  std::vector<std::unique_ptr<Acceptor>> listeners;
  // Connections waiting to authenticate hold a descriptor each, and
  // thousands may wait (issue 40): the budgets fit the files we may open.
  std::string budgetNote = fitPendingBudgets(
      limits.maxPending, limits.maxPendingPerAddress, raiseOpenFileLimit());
  for (const std::string &bind : binds)
    listeners.push_back(
        listenOn(bind, allowRemote, flags.unixMode, limits.liveness));
  // Private by default: a TCP address without --token-file gets a token
  // of its own, in a file (mode 0600, in a 0700 directory) that this user's
  // clients read and nobody else can; --no-token says to have none.
  std::vector<std::string> generatedTokenFiles;
  // A token file for one of our ports was left by a killed server that had
  // it before: a client would prove that stale token to us.
  for (const auto &listener : listeners)
    if (listener->port())
      unlink(generatedTokenPath(listener->port()).c_str());
  if (token.empty() && !flags.noToken && !flags.insecurePlaintext) {
    std::vector<unsigned> ports;
    for (const auto &listener : listeners)
      if (listener->port())
        ports.push_back(listener->port());
    if (!ports.empty()) {
      std::string problem = makePrivateRuntimeDirectory();
      if (problem.empty() && !makeNonce(token))
        problem = "OpenSSL's random generator failed";
      for (unsigned port : ports) {
        if (!problem.empty())
          break;
        std::string path = generatedTokenPath(port);
        unlink(path.c_str()); // a server on this port before, killed
        int fd = open(path.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                      0600);
        std::string line = token + "\n";
        if (fd < 0 || write(fd, line.data(), line.size()) !=
                          static_cast<ssize_t>(line.size()))
          problem = "cannot write " + path + ": " + std::strerror(errno);
        if (fd >= 0)
          close(fd);
        generatedTokenFiles.push_back(path);
      }
      if (!problem.empty()) {
        for (const std::string &path : generatedTokenFiles)
          unlink(path.c_str());
        flagError("cannot keep a generated token for TCP: " + problem +
                  "; give --token-file, or --no-token to accept any local "
                  "user");
      }
      security.token = token;
    }
  }
  // Connections that need no authentication hear ORC's Setup from the
  // listener and get a process only once their client speaks (issue 40):
  // the session server they inherit, made once here (SetupAhead.h).
  AheadServer aheadPlain, aheadHeap;
  for (const auto &listener : listeners) {
    if (listener->authenticates(security))
      continue;
    bool heap = listener->passesDescriptors() && publishOurs && useKernelHeap;
    AheadServer &ahead = heap ? aheadHeap : aheadPlain;
    if (ahead.server)
      continue;
    if (std::string problem = prepareAheadServer(ahead, heap);
        !problem.empty()) {
      std::fprintf(stderr, "%s: cannot prepare sessions: %s\n",
                   programName(), problem.c_str());
      return 1;
    }
  }
  // What a server killed before it could clean up left in the root (before
  // "listening on": a client may then count on it).
  sessionLabel = "listener";
  removeStaleAssetDirectories(assetRoot);
  for (const auto &listener : listeners) {
    // Catalyst's launcher waits for `Listening on HOST:PORT` on the
    // executor's output (standard output and error merged; its own
    // catalyst-executor says it on standard error), with the port bound.
    if (flags.catalystExecutor)
      std::fprintf(stderr, "Listening on %s\n", listener->address().c_str());
    else
      std::printf("listening on %s\n", listener->address().c_str());
    fds.push_back({listener->fd(), POLLIN, 0});
  }
  std::fflush(stdout);
  std::fflush(stderr);

  sessionLabel = "listener";
  logEvent(std::string(useTls ? "TLS" : "plaintext") +
           (token.empty() ? ", no token" : ", token required") +
           (runAs.drop ? ", sessions run as " + runAs.user : std::string()) +
           "; limits: " + std::to_string(limits.maxSessions) +
           " sessions, messages up to " + describeSize(limits.maxMessageSize) +
           ", " +
           (limits.sessionMemory ? describeSize(limits.sessionMemory)
                                 : std::string("unlimited")) +
           " memory a session, launches up to " +
           (limits.launchTime.count() ? formatDuration(limits.launchTime)
                                      : std::string("any time")));
  logEvent(isolationLine);
  if (!budgetNote.empty())
    logEvent("note: " + budgetNote);
  if (!isolationMissing.empty())
    logEvent("isolation not in force: " + isolationMissing);
  if (!generatedTokenFiles.empty())
    logEvent("generated a token for TCP: this user's clients read it from " +
             generatedTokenFiles[0] +
             " (--token-file to choose one, --no-token for none)");
  if (!unreachableAssets.empty())
    logEvent("note: sessions run as " + runAs.user + " and cannot reach "
             "--asset-root " + assetRoot + " by its path (" +
             unreachableAssets + "): kernels find their assets in their "
             "working directory, not through $EXECUTOR_ASSET_DIR");
  AuthThrottle throttle(limits.authFailureDelay);
  pid_t listenerPid = getpid();
  struct Session {
    std::string label;
    std::string assets; // removed when the session process ends
  };
  std::map<pid_t, Session> sessions;
  unsigned nextSession = 1;
  using Clock = std::chrono::steady_clock;
  // Connections that have not authenticated (TLS, the token): the listener
  // drives them itself, never forks for them, and they do not count as
  // sessions; they have their own budget (--max-pending, per address) and
  // time-out (--auth-timeout).
  struct Pending {
    std::unique_ptr<PendingConnection> connection;
    const Acceptor *from;
    std::string peerName, host;
    Clock::time_point accepted;
    AheadServer *ahead = nullptr; // it had ORC's Setup (SetupAhead.h)
  };
  std::vector<Pending> pending;
  std::map<std::string, unsigned> pendingByHost;
  std::chrono::milliseconds authTimeout =
      std::min(limits.authTimeout, limits.handshakeTimeout);
  // What a flood's connections come to (closed to make room, timed out)
  // is logged once a second, counted, not once each: "VERB N connections
  // WHY".
  std::map<std::pair<std::string, std::string>, unsigned> quietRefusals;
  Clock::time_point quietSince = Clock::now();
  auto countQuietly = [&](const std::string &verb, const std::string &why) {
    if (quietRefusals[{verb, why}]++ == 0 && quietRefusals.size() == 1)
      quietSince = Clock::now();
  };
  auto reportQuietRefusals = [&](bool now) {
    if (quietRefusals.empty() ||
        (!now && Clock::now() - quietSince < std::chrono::seconds(1)))
      return;
    for (auto &[what, count] : quietRefusals)
      logEvent(what.first + " " + std::to_string(count) + " connection" +
               (count == 1 ? "" : "s") + what.second);
    quietRefusals.clear();
  };
  auto busyReason = [&] {
    return "busy: this executor serves its maximum of " +
           std::to_string(limits.maxSessions) +
           " sessions (--max-sessions); try again later";
  };

  // Forks the session for a connection that may have one.
  auto startSession = [&](int fd, std::unique_ptr<TlsStream> tls,
                          const Acceptor &from, const std::string &peerName,
                          Clock::time_point accepted, AheadServer *ahead) {
    auto refuseHere = [&](const std::string &why) {
      std::string line = kGreetRefused + why + "\n";
      if (tls)
        tls->writeAll(line.data(), line.size());
      else if (ahead) { // it has ORC's Setup: an ORC Hangup
        std::string hangup = orcHangupFrame(why);
        (void)!::send(fd, hangup.data(), hangup.size(),
                      MSG_NOSIGNAL | MSG_DONTWAIT);
        close(fd);
      } else {
        refuseConnection(fd, why);
        close(fd);
      }
    };
    if (sessions.size() >= limits.maxSessions) {
      logEvent("refused " + peerName + ": " + busyReason());
      refuseHere(busyReason());
      return;
    }
    std::string label = "session " + std::to_string(nextSession++) + " (" +
                        peerName + ")";
    std::string assetProblem;
    std::string assets = makeAssetDirectory(assetRoot, assetProblem);
    if (assets.empty())
      logEvent("error: " + label + ": " + assetProblem);
    else if (runAs.drop && chown(assets.c_str(), runAs.uid, runAs.gid) != 0)
      logEvent("error: " + label + ": cannot give " + assets + " to " +
               runAs.user + ": " + std::strerror(errno));
    pid_t pid = fork();
    if (pid == 0) {
      // Nothing of the listener's (listening sockets, other clients'
      // connections, its signal pipe) stays open in a session.
      closeInheritedDescriptors(fd, stdioOut);
      restoreOpenFileLimit();
      // No terminal: a kernel must not push input into the shell that
      // started the server (issue 41). Before anything else, so that no
      // process of the session ever has one.
      std::string noTerminal = leaveTerminal();
      // What only the listener needs: the token stays out of the memory
      // kernels run in.
      OPENSSL_cleanse(token.data(), token.size());
      OPENSSL_cleanse(security.token.data(), security.token.size());
      signal(SIGINT, SIG_DFL);
      signal(SIGTERM, SIG_DFL);
      signal(SIGHUP, SIG_DFL);
      signal(SIGCHLD, SIG_DFL);
      sessionLabel = label;
      auto refuse = [&](const std::string &why) {
        logEvent("refused: cannot start a session: " + why);
        std::string line = std::string(kGreetRefused) +
                           "cannot start a session: " + why + "\n";
        if (tls)
          tls->writeAll(line.data(), line.size());
        else if (ahead) {
          std::string hangup =
              orcHangupFrame("cannot start a session: " + why);
          (void)!::send(fd, hangup.data(), hangup.size(), MSG_NOSIGNAL);
        } else
          refuseConnection(fd, "cannot start a session: " + why);
        std::fflush(nullptr);
        _exit(6); // the listener removes the asset directory
      };
      if (!noTerminal.empty())
        refuse(noTerminal);
      // Entered while still allowed to reach it (the asset root may not
      // be open to the --run-as user); the working directory stays.
      enterAssetDirectory(assets, assetProblem);
      // Still privileged: the session's memory cgroup and SysV limits,
      // which it can then neither leave nor raise.
      if (std::string problem = enterSessionMemoryCgroup(
              memoryGroups, getpid(), sessionCgroupLimit(limits.sessionMemory));
          !problem.empty())
        refuse(problem);
      if (ipcLimits)
        if (std::string problem = enterLimitedIpcNamespace(limits.sessionMemory);
            !problem.empty())
          refuse(problem);
      if (std::string problem = enterSessionPrivileges(runAs, listenerPid);
          !problem.empty())
        refuse(problem);
      if (namespaces.namespaces) {
        // This process stays the keeper (in the host's PID namespace); the
        // session is its child, PID 1 of a namespace of its own.
        if (std::string problem =
                enterSessionNamespaces(assets, limits.sessionMemory,
                                       namespaces.ownNetwork, !ipcLimits);
            !problem.empty())
          refuse("cannot enter the session's namespaces: " + problem);
        int alive[2];
        void *slot = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (slot == MAP_FAILED || pipe2(alive, O_CLOEXEC) != 0)
          refuse(std::string("cannot keep the session: ") +
                 std::strerror(errno));
        LogRelay relay;
        if (std::string problem = openLogRelay(relay); !problem.empty())
          refuse(problem);
        auto *crashSignal = static_cast<volatile int *>(slot);
        pid_t session = fork();
        if (session < 0)
          refuse(std::string("fork: ") + std::strerror(errno));
        if (session > 0) {
          close(alive[0]);
          close(fd);
          close(relay.writeEnd);
          logEvent(debuggerHint(session));
          // --stdio: the log crosses ssh or srun's pipe, in batches.
          keepSession(session, crashSignal, relay.readEnd,
                      flags.stdio ? kStdioLogGather
                                  : std::chrono::milliseconds(0));
        }
        close(alive[1]);
        // What the session writes to its log reaches it through the keeper.
        writeLogToRelay(relay);
        if (std::string problem =
                becomeSessionInit(namespaces.privateProc, alive[0]);
            !problem.empty())
          refuse(problem);
        reportCrashSignalTo(crashSignal);
        if (std::string problem =
                limitSessionProcesses(limits.sessionProcesses);
            !problem.empty())
          refuse(problem);
      } else {
        logEvent(debuggerHint(getpid()));
      }
      if (std::string problem = limitSessionMemory(limits.sessionMemory);
          !problem.empty())
        refuse(problem);
      if (std::string problem = limitSessionFileSize(limits.sessionMemory);
          !problem.empty())
        refuse(problem);
      // A kernel's output: to the log, escaped, under this session's label.
      if (std::string problem = captureKernelOutput(); !problem.empty())
        refuse(problem);
      if (syscallFilter)
        if (std::string problem = installSyscallFilter(flags.allowedCalls);
            !problem.empty())
          refuse(problem);
      std::string threadProblem;
      if (!startSessionWatchdog(limits, accepted + limits.handshakeTimeout,
                                threadProblem))
        refuse(threadProblem);
      logEvent(tls ? "opened (TLS)" : "opened");
      // SIGTERM (the server stops): finish what runs, refuse new
      // launches, then end with "shutting down" (Limits.h).
      signal(SIGTERM, [](int) { requestSessionStop(); });
      int status =
          ahead ? serveAheadSession(from.stream(fd, nullptr), *ahead,
                                    limits.sessionMemory)
                : serveSession(from.stream(fd, std::move(tls)),
                               limits.sessionMemory, assets, assetProblem);
      // The listener removes it when it reaps this process (which covers a
      // crash); a session that could not reach it as --run-as leaves it.
      if (!runAs.drop)
        removeAssetDirectory(assets);
      finishKernelOutput();
      _exit(status);
    }
    if (pid > 0) {
      sessions[pid] = {label, assets};
      if (!tls)
        close(fd);
      return;
    }
    std::string why = std::string("fork: ") + std::strerror(errno);
    logEvent("refused " + label + ": cannot start a session: " + why);
    refuseHere("cannot start a session: " + why);
    removeAssetDirectory(assets);
  };

  // Acts on what a pending connection's step came to; false when it is
  // over (authenticated and handed to a session, or refused).
  auto settle = [&](Pending &p, PendingConnection::State state) {
    switch (state) {
    case PendingConnection::State::Waiting:
      return true;
    case PendingConnection::State::Authenticated: {
      int fd = p.connection->fd();
      std::unique_ptr<TlsStream> tls = p.connection->release();
      startSession(fd, std::move(tls), *p.from, p.peerName, p.accepted,
                   p.ahead);
      return false;
    }
    case PendingConnection::State::WrongToken:
      throttle.failed(p.host);
      [[fallthrough]];
    case PendingConnection::State::Refused:
      // A client that went before proving anything: a flood's socket as
      // often as not, counted.
      if (p.connection->failure().rfind("the client", 0) == 0)
        countQuietly("refused", ": " + p.connection->failure());
      else
        logEvent("refused " + p.peerName + ": " + p.connection->failure());
      return false;
    }
    return false;
  };
  // A pending connection that is over leaves a hole in `pending` (its
  // connection null), closed up once per turn of the loop: a flood of
  // thousands is not moved once for each that goes.
  size_t pendingCount = 0;
  auto dropPending = [&](Pending &p) {
    if (--pendingByHost[p.host] == 0)
      pendingByHost.erase(p.host);
    p.connection.reset();
    --pendingCount;
  };
  // A budget is full: the oldest connection (from `host`, when it is that
  // address's budget) that has proved nothing makes room for the new one,
  // never the new one (issue 40: refusing newcomers let a flood of idle
  // sockets lock every client out). When all have finished TLS, the oldest.
  auto makeRoom = [&](const std::string *host, const std::string &why) {
    Pending *victim = nullptr, *proved = nullptr;
    for (Pending &p : pending) {
      if (!p.connection || (host && p.host != *host))
        continue;
      if (!p.connection->provedSomething()) {
        victim = &p;
        break;
      }
      if (!proved)
        proved = &p;
    }
    if (!victim)
      victim = proved;
    if (!victim)
      return;
    victim->connection->refuse("closed to make room: " + why +
                               ", and this was the oldest connection that "
                               "had proved nothing; try again");
    countQuietly("closed",
                 " to make room: " + why + " (the oldest that had proved "
                 "nothing)");
    dropPending(*victim);
  };

  // --stdio: its one session now; the server ends with it.
  int stdioStatus = 0;
  if (stdio) {
    startSession(stdioIn, nullptr, *stdio, "stdio", Clock::now(), nullptr);
    close(stdioOut);
  }
  bool running = true;
  std::vector<pollfd> polled;
  while (running && !(stdio && sessions.empty())) {
    if (pendingCount < pending.size())
      pending.erase(std::remove_if(pending.begin(), pending.end(),
                                   [](const Pending &p) {
                                     return !p.connection;
                                   }),
                    pending.end());
    polled = fds;
    for (const Pending &p : pending)
      polled.push_back({p.connection->fd(), p.connection->events(), 0});
    int timeout = pendingCount == 0 && quietRefusals.empty() ? -1 : 50;
    if (poll(polled.data(), polled.size(), timeout) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (polled[0].revents & POLLIN) {
      char sig = 0;
      while (read(signalPipe[0], &sig, 1) == 1)
        if (sig != SIGCHLD)
          running = false;
      int status = 0;
      pid_t pid;
      while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        std::string label = sessions[pid].label;
        removeAssetDirectory(sessions[pid].assets);
        removeSessionMemoryCgroup(memoryGroups, pid);
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
        stdioStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
      }
    }
    // The pending connections: what came, then what timed out.
    size_t listenerCount = fds.size();
    for (size_t i = 0; i < pending.size(); ++i) {
      Pending &p = pending[i];
      short got = polled[listenerCount + i].revents;
      bool alive = true;
      if (got || p.connection->proofWaiting() || p.connection->partial())
        alive = settle(p, p.connection->advance(throttle.mayCheck(), got));
      if (alive && Clock::now() >= p.connection->deadline()) {
        std::string why =
            p.ahead ? "ended: no session started within " +
                          formatDuration(limits.handshakeTimeout) +
                          " of connecting (--handshake-timeout)"
                    : "it did not authenticate within " +
                          formatDuration(authTimeout) +
                          " of connecting (--auth-timeout)";
        p.connection->refuse(why);
        countQuietly("refused", ": " + why);
        alive = false;
      }
      if (!alive)
        dropPending(p);
    }
    for (size_t i = kFirstListener; i < fds.size() && running; ++i) {
      if (!(polled[i].revents & POLLIN))
        continue;
      Acceptor &listener = *listeners[i - kFirstListener];
      // Everything that waits, so a flood is turned away at its own pace.
      for (int n = 0; n < 256; ++n) {
        std::string peerName, host;
        int fd = listener.accept(peerName, host);
        if (fd < 0)
          break;
        auto accepted = Clock::now();
        // A listener whose connections need not authenticate (a Unix
        // socket, a server without TLS or token) sends ORC's Setup now and
        // starts the session when the client speaks (SetupAhead.h).
        bool open = !listener.authenticates(security);
        if (!open)
          if (auto wait = throttle.wait(host); wait.count() > 0) {
            std::string why = "a wrong token came from this address just "
                              "now; retry in " + formatDuration(wait);
            logEvent("refused " + peerName + ": " + why);
            refuseConnection(fd, why);
            close(fd);
            continue;
          }
        if (sessions.size() >= limits.maxSessions) {
          logEvent("refused " + peerName + ": " + busyReason());
          refuseConnection(fd, busyReason());
          close(fd);
          continue;
        }
        if (auto it = pendingByHost.find(host);
            it != pendingByHost.end() &&
            it->second >= limits.maxPendingPerAddress)
          makeRoom(&host, "this address had " +
                              std::to_string(limits.maxPendingPerAddress) +
                              " connections authenticating "
                              "(--max-pending-per-address)");
        if (pendingCount >= limits.maxPending)
          makeRoom(nullptr, std::to_string(limits.maxPending) +
                                " connections were authenticating "
                                "(--max-pending)");
        ++pendingByHost[host];
        ++pendingCount;
        AheadServer *ahead = nullptr;
        if (open)
          ahead = listener.passesDescriptors() && publishOurs && useKernelHeap
                      ? &aheadHeap
                      : &aheadPlain;
        pending.push_back(
            {std::make_unique<PendingConnection>(
                 fd, security,
                 accepted + (open ? limits.handshakeTimeout : authTimeout)),
             &listener, peerName, host, accepted, ahead});
        Pending &added = pending.back();
        if (!settle(added, open ? added.connection->startAhead(
                                      ahead->transport->setupFrame())
                                : added.connection->start()))
          dropPending(added);
      }
    }
    reportQuietRefusals(false);
  }
  reportQuietRefusals(true);
  pending.clear();
  // Stop: no new connections (refused at once, not left in the backlog);
  // SIGTERM, a grace period, then SIGKILL for what is left.
  for (auto &listener : listeners)
    listener->stop();
  for (auto &[pid, session] : sessions)
    kill(pid, SIGTERM);
  auto graceEnds = std::chrono::steady_clock::now() + limits.stopGrace;
  while (!sessions.empty()) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      auto it = sessions.find(pid);
      if (it != sessions.end()) {
        removeAssetDirectory(it->second.assets);
        removeSessionMemoryCgroup(memoryGroups, pid);
        logEvent(it->second.label + " closed (server stopping)");
        sessions.erase(it);
      }
      continue;
    }
    if (pid < 0 && errno != EINTR)
      break;
    if (std::chrono::steady_clock::now() >= graceEnds) {
      for (auto &[pid, session] : sessions) {
        logEvent(session.label + " did not end within " +
                 formatDuration(limits.stopGrace) +
                 " of SIGTERM (--stop-grace): SIGKILL");
        kill(pid, SIGKILL);
      }
      for (auto &[pid, session] : sessions) {
        waitpid(pid, nullptr, 0);
        removeAssetDirectory(session.assets);
        removeSessionMemoryCgroup(memoryGroups, pid);
        logEvent(session.label + " closed (server stopping)");
      }
      sessions.clear();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (auto &listener : listeners)
    listener->remove();
  for (const std::string &path : generatedTokenFiles)
    unlink(path.c_str());
  removeMemoryCgroups(memoryGroups);
  unservedAtExit[0] = aheadPlain.server.release();
  unservedAtExit[1] = aheadHeap.server.release();
  logEvent("stopped");
  return stdio ? stdioStatus : 0;
}
