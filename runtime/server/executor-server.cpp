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
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/TlsStream.h"
#include "Acceptor.h"
#include "AssetService.h"
#include "Auth.h"
#include "CrashReport.h"
#include "LaunchService.h"
#include "Limits.h"
#include "Listener.h"
#include "MemoryCgroup.h"
#include "Privileges.h"
#include "Sandbox.h"
#include "ServerFlags.h"
#include "SessionLauncher.h"
#include "SessionProcess.h"
#include "StdioAcceptor.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace executor_studio::runtime;

namespace {
/// The token (--token-file) and TLS (--tls-cert, --tls-key); a problem
/// stops the server (flagError).
void loadSecurity(const ServerFlags &flags, std::string &token,
                  std::unique_ptr<TlsServerContext> &tls) {
  if (!flags.tokenFile.empty())
    if (std::string problem = loadTokenFile(flags.tokenFile, token);
        !problem.empty())
      flagError(problem);
  if (!flags.tlsCert.empty()) {
    std::string problem;
    tls = TlsServerContext::load(flags.tlsCert, flags.tlsKey, problem);
    if (!tls)
      flagError(problem);
  }
}

/// What sessions get of the sandbox on this machine, and the start-up
/// report's line on it; `missing`: the parts not in force, "; "-joined.
/// --require-isolation: all of it, or no start (before anything listens).
SessionSandbox probeSandbox(const ServerFlags &flags, std::string &report,
                            std::string &missing) {
  SessionSandbox sandbox;
  if (std::string problem =
          resolveRunAs(flags.runAsUser, flags.runAsNamed, sandbox.runAs);
      !problem.empty())
    flagError(problem);
  std::string noFilterWhy;
  sandbox.allowedCalls = flags.allowedCalls;
  sandbox.syscallFilter = syscallFilterWorks(flags.allowedCalls, noFilterWhy);
  sandbox.namespaces = probeSessionNamespaces(sandbox.runAs, flags.ownNetwork);
  if (!sandbox.namespaces.namespaces && flags.ownNetwork) {
    // A machine that gives the other namespaces but no network namespace:
    // those, and the start-up report says what is missing.
    SessionNamespaces withoutNetwork =
        probeSessionNamespaces(sandbox.runAs, false);
    if (withoutNetwork.namespaces) {
      withoutNetwork.noNetworkWhy = sandbox.namespaces.why;
      sandbox.namespaces = withoutNetwork;
    }
  }
  // Memory counted where the pages are (MemoryCgroup.h): a group of the
  // session's own, and SysV limits in its own IPC namespace.
  const SessionLimits &limits = flags.limits;
  std::string noIpcLimitsWhy = "--max-session-memory 0";
  if (limits.sessionMemory) {
    sandbox.memoryGroups = setUpMemoryCgroups();
    if (sandbox.namespaces.namespaces)
      sandbox.ipcLimits = ipcLimitsWork(limits.sessionMemory, noIpcLimitsWhy);
  }
  std::vector<std::string> missingParts;
  report = describeIsolation(
      sandbox.runAs.drop, sandbox.syscallFilter, noFilterWhy,
      sandbox.namespaces, limits.sessionMemory, limits.sessionProcesses,
      sandbox.memoryGroups,
      sandbox.ipcLimits ? std::string() : noIpcLimitsWhy, missingParts);
  for (const std::string &part : missingParts)
    missing += (missing.empty() ? "" : "; ") + part;
  if (flags.requireIsolation && !missing.empty())
    flagError("--require-isolation: sessions would lack " + missing);
  return sandbox;
}

/// Private by default: a TCP address without --token-file gets a token of
/// its own, in a file (mode 0600, in a 0700 directory) that this user's
/// clients read and nobody else can; --no-token says to have none. The
/// files written (removed when the server stops).
std::vector<std::string>
generateTokenFiles(const std::vector<std::unique_ptr<Acceptor>> &listeners,
                   const ServerFlags &flags, std::string &token) {
  // A token file for one of our ports was left by a killed server that had
  // it before: a client would prove that stale token to us.
  std::vector<unsigned> ports;
  for (const auto &listener : listeners)
    if (listener->port()) {
      unlink(generatedTokenPath(listener->port()).c_str());
      ports.push_back(listener->port());
    }
  std::vector<std::string> files;
  if (!token.empty() || flags.noToken || flags.insecurePlaintext ||
      ports.empty())
    return files;
  std::string problem = makePrivateRuntimeDirectory();
  if (problem.empty() && !makeNonce(token))
    problem = "OpenSSL's random generator failed";
  for (unsigned port : ports) {
    if (!problem.empty())
      break;
    std::string path = generatedTokenPath(port);
    int fd = open(path.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    std::string line = token + "\n";
    if (fd < 0 ||
        write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
      problem = "cannot write " + path + ": " + std::strerror(errno);
    if (fd >= 0)
      close(fd);
    files.push_back(path);
  }
  if (!problem.empty()) {
    for (const std::string &path : files)
      unlink(path.c_str());
    flagError("cannot keep a generated token for TCP: " + problem +
              "; give --token-file, or --no-token to accept any local user");
  }
  return files;
}

/// The server's lines before it serves: its trust and limits, the
/// sandbox, and what the operator may want to change.
void logStartup(const ServerFlags &flags, const ServerSecurity &security,
                const SessionSandbox &sandbox, const std::string &isolation,
                const std::string &missing, const std::string &budgetNote,
                const std::vector<std::string> &generatedTokenFiles) {
  const SessionLimits &limits = flags.limits;
  logEvent(std::string(security.tls ? "TLS" : "plaintext") +
           (security.token.empty() ? ", no token" : ", token required") +
           (sandbox.runAs.drop ? ", sessions run as " + sandbox.runAs.user
                               : std::string()) +
           "; limits: " + std::to_string(limits.maxSessions) +
           " sessions, messages up to " + describeSize(limits.maxMessageSize) +
           ", " +
           (limits.sessionMemory ? describeSize(limits.sessionMemory)
                                 : std::string("unlimited")) +
           " memory a session, launches up to " +
           (limits.launchTime.count() ? formatDuration(limits.launchTime)
                                      : std::string("any time")));
  logEvent(isolation);
  if (!budgetNote.empty())
    logEvent("note: " + budgetNote);
  if (!missing.empty())
    logEvent("isolation not in force: " + missing);
  if (!generatedTokenFiles.empty())
    logEvent("generated a token for TCP: this user's clients read it from " +
             generatedTokenFiles[0] +
             " (--token-file to choose one, --no-token for none)");
  // Sessions work in their asset directory (entered before the drop); only
  // kernels that use its full path ($EXECUTOR_ASSET_DIR) need to reach it.
  if (std::string unreachable = reachableBy(flags.assetRoot, sandbox.runAs);
      !unreachable.empty())
    logEvent("note: sessions run as " + sandbox.runAs.user +
             " and cannot reach --asset-root " + flags.assetRoot +
             " by its path (" + unreachable + "): kernels find their assets "
             "in their working directory, not through $EXECUTOR_ASSET_DIR");
}

/// What sessions do as the flags say (SessionProcess.h, LaunchService.h,
/// CrashReport.h).
void applySessionFlags(const ServerFlags &flags) {
  useKernelHeap = flags.useKernelHeap;
  logLaunches = flags.logLaunches;
  setDebugWait(flags.debugWait);
  publishOurs = flags.publishOurs;
  publishCatalyst = flags.publishCatalyst;
}

/// Every --bind address, bound; `budgetNote`: how the pending-connection
/// budgets were fitted to the files this process may open (connections
/// waiting to authenticate hold a descriptor each, and thousands may wait:
/// issue 40), or "".
std::vector<std::unique_ptr<Acceptor>> bindAll(ServerFlags &flags,
                                               std::string &budgetNote) {
  SessionLimits &limits = flags.limits;
  budgetNote = fitPendingBudgets(limits.maxPending, limits.maxPendingPerAddress,
                                 raiseOpenFileLimit());
  std::vector<std::unique_ptr<Acceptor>> listeners;
  for (const std::string &bind : flags.binds)
    listeners.push_back(listenOn(bind, flags.allowRemote, flags.unixMode,
                                 limits.liveness));
  return listeners;
}

/// "listening on ADDRESS" for each listener, once all are bound.
void announce(const std::vector<std::unique_ptr<Acceptor>> &listeners,
              const ServerFlags &flags) {
  for (const auto &listener : listeners) {
    // Catalyst's launcher waits for `Listening on HOST:PORT` on the
    // executor's output (standard output and error merged; its own
    // catalyst-executor says it on standard error), with the port bound.
    if (flags.catalystExecutor)
      std::fprintf(stderr, "Listening on %s\n", listener->address().c_str());
    else
      std::printf("listening on %s\n", listener->address().c_str());
  }
  std::fflush(stdout);
  std::fflush(stderr);
}

/// The session servers that connections needing no authentication hear
/// ORC's Setup from (SetupAhead.h), with the kernel heap's service and
/// without.
struct AheadServers {
  AheadServer plain, heap;
  AheadServer &of(const Acceptor &acceptor) {
    return acceptor.passesDescriptors() && publishOurs && useKernelHeap
               ? heap
               : plain;
  }
  /// Makes those `listeners` need; "" or the problem.
  std::string prepare(const std::vector<std::unique_ptr<Acceptor>> &listeners,
                      const ServerSecurity &security) {
    for (const auto &listener : listeners) {
      if (listener->authenticates(security))
        continue;
      AheadServer &ahead = of(*listener);
      if (ahead.server)
        continue;
      if (std::string problem = prepareAheadServer(ahead, &ahead == &heap);
          !problem.empty())
        return problem;
    }
    return "";
  }
  /// At the listener's exit: never served there, so nothing of theirs to
  /// shut down; kept reachable (unservedAtExit) rather than destroyed.
  void keepAtExit() {
    unservedAtExit[0] = plain.server.release();
    unservedAtExit[1] = heap.server.release();
  }
};
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
  applySessionFlags(flags);
  SessionLimits &limits = flags.limits;
  std::string token;
  std::unique_ptr<TlsServerContext> tlsContext;
  loadSecurity(flags, token, tlsContext);
  std::string isolation, isolationMissing;
  SessionSandbox sandbox = probeSandbox(flags, isolation, isolationMissing);
  StreamTransport::setMaxMessageSize(limits.maxMessageSize);
  ServerSecurity security{tlsContext.get(), token};
  for (const std::string &plugin : flags.plugins)
    if (!dlopen(plugin.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      std::fprintf(stderr, "%s: cannot load plugin %s: %s\n", programName(),
                   plugin.c_str(), dlerror());
      return 1;
    }
  if (!routeSignalsToListener())
    return 1;

  // Bind everything before announcing anything: a refused address stops the
  // server before any client sees it listening. Each listener knows its
  // kind (Acceptor.h); nothing below asks.
  std::string budgetNote;
  std::vector<std::unique_ptr<Acceptor>> listeners = bindAll(flags, budgetNote);
  std::vector<std::string> generatedTokenFiles =
      generateTokenFiles(listeners, flags, token);
  security.token = token;
  // Connections that need no authentication hear ORC's Setup from the
  // listener and get a process only once their client speaks (issue 40):
  // the session server they inherit, made once here (SetupAhead.h).
  AheadServers ahead;
  if (std::string problem = ahead.prepare(listeners, security);
      !problem.empty()) {
    std::fprintf(stderr, "%s: cannot prepare sessions: %s\n", programName(),
                 problem.c_str());
    return 1;
  }
  // What a server killed before it could clean up left in the root (before
  // "listening on": a client may then count on it).
  sessionLabel = "listener";
  removeStaleAssetDirectories(flags.assetRoot);
  announce(listeners, flags);
  logStartup(flags, security, sandbox, isolation, isolationMissing,
             budgetNote, generatedTokenFiles);

  SessionLauncher launcher(limits, sandbox, flags.assetRoot,
                           {&token, &security.token}, stdioOut);
  Listener listener(listeners, security, limits, launcher,
                    [&](const Acceptor &from) -> AheadServer & {
                      return ahead.of(from);
                    });
  // --stdio: its one session now; the server ends with it.
  if (stdio) {
    launcher.start(SessionConnection::standardStreams(stdioIn, *stdio));
    close(stdioOut);
  }
  int stdioStatus = listener.run(/*untilNoSession=*/stdio != nullptr);
  // Stop: no new connections (refused at once, not left in the backlog);
  // SIGTERM, a grace period, then SIGKILL for what is left.
  for (auto &acceptor : listeners)
    acceptor->stop();
  launcher.stopAll();
  for (auto &acceptor : listeners)
    acceptor->remove();
  for (const std::string &path : generatedTokenFiles)
    unlink(path.c_str());
  removeMemoryCgroups(sandbox.memoryGroups);
  ahead.keepAtExit();
  logEvent("stopped");
  return stdio ? stdioStatus : 0;
}
