//===- SessionLauncher.cpp - a process a session, sandboxed ---------------===//
//
// See SessionLauncher.h. The order of the steps in a session process is
// the sandbox's: no terminal first, then what needs privileges (the asset
// directory, the memory cgroup, SysV limits), the drop, the namespaces,
// the limits, the system-call filter last.
//
//===----------------------------------------------------------------------===//
#include "SessionLauncher.h"

#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Stream.h"
#include "ExecutorRuntime/TlsStream.h"
#include "Acceptor.h"
#include "AssetService.h"
#include "Auth.h"
#include "CrashReport.h"
#include "LaunchService.h"
#include "SessionProcess.h"
#include "SetupAhead.h"

#include <openssl/crypto.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace executor_studio::runtime {

SessionLauncher::SessionLauncher(const SessionLimits &limits,
                                 SessionSandbox &sandbox,
                                 std::string assetRoot,
                                 std::vector<std::string *> secrets,
                                 int stdioOut)
    : limits(limits), sandbox(sandbox), assetRoot(std::move(assetRoot)),
      secrets(std::move(secrets)), stdioOut(stdioOut),
      listenerPid(getpid()) {}

SessionLauncher::~SessionLauncher() = default;

bool SessionLauncher::full() const {
  return sessions.size() >= limits.maxSessions;
}

std::string SessionLauncher::busyReason() const {
  return "busy: this executor serves its maximum of " +
         std::to_string(limits.maxSessions) +
         " sessions (--max-sessions); try again later";
}

void SessionLauncher::refuseHere(SessionConnection &connection,
                                 const std::string &why) {
  if (connection.tls) {
    std::string line = kGreetRefused + why + "\n";
    connection.tls->writeAll(line.data(), line.size());
    return; // closed with its TlsStream
  }
  if (connection.ahead) { // it has ORC's Setup: an ORC Hangup
    std::string hangup = orcHangupFrame(why);
    (void)!::send(connection.fd, hangup.data(), hangup.size(),
                  MSG_NOSIGNAL | MSG_DONTWAIT);
  } else {
    refuseConnection(connection.fd, why);
  }
  close(connection.fd);
}

void SessionLauncher::refuseFromSession(SessionConnection &connection,
                                        const std::string &why) {
  std::string reason = "cannot start a session: " + why;
  logEvent("refused: " + reason);
  if (connection.tls) {
    std::string line = std::string(kGreetRefused) + reason + "\n";
    connection.tls->writeAll(line.data(), line.size());
  } else if (connection.ahead) {
    std::string hangup = orcHangupFrame(reason);
    (void)!::send(connection.fd, hangup.data(), hangup.size(), MSG_NOSIGNAL);
  } else {
    refuseConnection(connection.fd, reason);
  }
  std::fflush(nullptr);
  _exit(6); // the listener removes the asset directory
}

void SessionLauncher::start(SessionConnection connection) {
  if (full()) {
    logEvent("refused " + connection.peerName + ": " + busyReason());
    refuseHere(connection, busyReason());
    return;
  }
  std::string label = "session " + std::to_string(nextSession++) + " (" +
                      connection.peerName + ")";
  std::string assetProblem;
  std::string assets = makeAssetDirectory(assetRoot, assetProblem);
  const RunAs &runAs = sandbox.runAs;
  if (assets.empty())
    logEvent("error: " + label + ": " + assetProblem);
  else if (runAs.drop && chown(assets.c_str(), runAs.uid, runAs.gid) != 0)
    logEvent("error: " + label + ": cannot give " + assets + " to " +
             runAs.user + ": " + std::strerror(errno));
  pid_t pid = fork();
  if (pid == 0)
    runSession(connection, label, assets);
  if (pid > 0) {
    sessions[pid] = {label, assets};
    if (!connection.tls)
      close(connection.fd);
    return;
  }
  std::string why = std::string("fork: ") + std::strerror(errno);
  logEvent("refused " + label + ": cannot start a session: " + why);
  refuseHere(connection, "cannot start a session: " + why);
  removeAssetDirectory(assets);
}

void SessionLauncher::runSession(SessionConnection &connection,
                                 const std::string &label,
                                 const std::string &assets) {
  // Nothing of the listener's (listening sockets, other clients'
  // connections, its signal pipe) stays open in a session.
  closeInheritedDescriptors(connection.fd, stdioOut);
  restoreOpenFileLimit();
  // No terminal: a kernel must not push input into the shell that started
  // the server (issue 41). Before anything else, so that no process of the
  // session ever has one.
  std::string noTerminal = leaveTerminal();
  // What only the listener needs: the token stays out of the memory
  // kernels run in.
  for (std::string *secret : secrets)
    OPENSSL_cleanse(secret->data(), secret->size());
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD})
    signal(sig, SIG_DFL);
  sessionLabel = label;
  if (!noTerminal.empty())
    refuseFromSession(connection, noTerminal);
  // Entered while still allowed to reach it (the asset root may not be
  // open to the --run-as user); the working directory stays.
  std::string assetProblem;
  enterAssetDirectory(assets, assetProblem);
  // Still privileged: the session's memory cgroup and SysV limits, which
  // it can then neither leave nor raise.
  if (std::string problem = enterSessionMemoryCgroup(
          sandbox.memoryGroups, getpid(),
          sessionCgroupLimit(limits.sessionMemory));
      !problem.empty())
    refuseFromSession(connection, problem);
  if (sandbox.ipcLimits)
    if (std::string problem = enterLimitedIpcNamespace(limits.sessionMemory);
        !problem.empty())
      refuseFromSession(connection, problem);
  if (std::string problem = enterSessionPrivileges(sandbox.runAs, listenerPid);
      !problem.empty())
    refuseFromSession(connection, problem);
  if (sandbox.namespaces.namespaces)
    enterSessionNamespacesKept(connection, assets);
  else
    logEvent(debuggerHint(getpid()));
  if (std::string problem = limitSessionMemory(limits.sessionMemory);
      !problem.empty())
    refuseFromSession(connection, problem);
  if (std::string problem = limitSessionFileSize(limits.sessionMemory);
      !problem.empty())
    refuseFromSession(connection, problem);
  // A kernel's output: to the log, escaped, under this session's label.
  if (std::string problem = captureKernelOutput(); !problem.empty())
    refuseFromSession(connection, problem);
  if (sandbox.syscallFilter)
    if (std::string problem = installSyscallFilter(sandbox.allowedCalls);
        !problem.empty())
      refuseFromSession(connection, problem);
  std::string threadProblem;
  if (!startSessionWatchdog(limits,
                            connection.accepted + limits.handshakeTimeout,
                            threadProblem))
    refuseFromSession(connection, threadProblem);
  logEvent(connection.tls ? "opened (TLS)" : "opened");
  // SIGTERM (the server stops): finish what runs, refuse new launches,
  // then end with "shutting down" (Limits.h).
  signal(SIGTERM, [](int) { requestSessionStop(); });
  const Acceptor &from = *connection.from;
  int status =
      connection.ahead
          ? serveAheadSession(from.stream(connection.fd, nullptr),
                              *connection.ahead, limits.sessionMemory)
          : serveSession(from.stream(connection.fd, std::move(connection.tls)),
                         limits.sessionMemory);
  // The listener removes it when it reaps this process (which covers a
  // crash); a session that could not reach it as --run-as leaves it.
  if (!sandbox.runAs.drop)
    removeAssetDirectory(assets);
  finishKernelOutput();
  _exit(status);
}

void SessionLauncher::enterSessionNamespacesKept(SessionConnection &connection,
                                                 const std::string &assets) {
  // This process stays the keeper (in the host's PID namespace); the
  // session is its child, PID 1 of a namespace of its own.
  if (std::string problem = enterSessionNamespaces(
          assets, limits.sessionMemory, sandbox.namespaces.ownNetwork,
          !sandbox.ipcLimits);
      !problem.empty())
    refuseFromSession(connection,
                      "cannot enter the session's namespaces: " + problem);
  int alive[2];
  void *slot = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (slot == MAP_FAILED || pipe2(alive, O_CLOEXEC) != 0)
    refuseFromSession(connection, std::string("cannot keep the session: ") +
                                      std::strerror(errno));
  LogRelay relay;
  if (std::string problem = openLogRelay(relay); !problem.empty())
    refuseFromSession(connection, problem);
  auto *crashSignal = static_cast<volatile int *>(slot);
  pid_t session = fork();
  if (session < 0)
    refuseFromSession(connection,
                      std::string("fork: ") + std::strerror(errno));
  if (session > 0) {
    close(alive[0]);
    close(connection.fd);
    close(relay.writeEnd);
    logEvent(debuggerHint(session));
    keepSession(session, crashSignal, relay.readEnd);
  }
  close(alive[1]);
  // What the session writes to its log reaches it through the keeper.
  writeLogToRelay(relay);
  if (std::string problem =
          becomeSessionInit(sandbox.namespaces.privateProc, alive[0]);
      !problem.empty())
    refuseFromSession(connection, problem);
  reportCrashSignalTo(crashSignal);
  if (std::string problem = limitSessionProcesses(limits.sessionProcesses);
      !problem.empty())
    refuseFromSession(connection, problem);
}

void SessionLauncher::forget(pid_t pid, const std::string &how) {
  auto it = sessions.find(pid);
  if (it == sessions.end())
    return;
  removeAssetDirectory(it->second.assets);
  removeSessionMemoryCgroup(sandbox.memoryGroups, pid);
  logEvent(it->second.label + how);
  sessions.erase(it);
}

std::optional<int> SessionLauncher::reap() {
  std::optional<int> last;
  int status = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    if (WIFSIGNALED(status))
      forget(pid, " ended by signal " + std::to_string(WTERMSIG(status)) +
                      " (" + strsignal(WTERMSIG(status)) + ") in a kernel");
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
      forget(pid, " ended with status " + std::to_string(WEXITSTATUS(status)));
    else
      forget(pid, " closed");
    last = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  return last;
}

void SessionLauncher::stopAll() {
  for (auto &[pid, session] : sessions)
    kill(pid, SIGTERM);
  auto graceEnds = std::chrono::steady_clock::now() + limits.stopGrace;
  while (!sessions.empty()) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      forget(pid, " closed (server stopping)");
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
      while (!sessions.empty()) {
        pid_t killed = sessions.begin()->first;
        waitpid(killed, nullptr, 0);
        forget(killed, " closed (server stopping)");
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

} // namespace executor_studio::runtime
