//===- SessionLauncher.h - a process a session, sandboxed --------*- C++ -*-===//
//
// Starts a session for a connection that may have one: forks it, and in
// the child leaves the terminal, drops privileges, enters the session's
// memory cgroup and namespaces (its keeper stays outside), sets its limits
// and its system-call filter, then serves (SessionProcess.h). The listener
// (Listener.h) hands it connections; it reaps them, and stops them all when
// the server stops. The sandbox's parts are Sandbox.h's, Privileges.h's and
// MemoryCgroup.h's; this is the order they are taken in.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_SESSIONLAUNCHER_H
#define EXECUTORSERVER_SESSIONLAUNCHER_H

#include "ExecutorRuntime/TlsStream.h"
#include "Limits.h"
#include "MemoryCgroup.h"
#include "Privileges.h"
#include "Sandbox.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace executor_studio::runtime {
class Acceptor;
struct AheadServer;

/// What every session gets of the sandbox, as the server found the
/// machine at start (executor-server's start-up report says the same).
struct SessionSandbox {
  RunAs runAs;
  SessionNamespaces namespaces;
  MemoryCgroups memoryGroups;
  bool ipcLimits = false;     // SysV limits in an IPC namespace of its own
  bool syscallFilter = false; // seccomp works here
  std::vector<std::string> allowedCalls; // --allow-syscall
};

/// A connection the listener hands over: authenticated, or needing no
/// authentication (then `ahead` is the server whose Setup it heard).
struct SessionConnection {
  int fd = -1;
  std::unique_ptr<TlsStream> tls;
  const Acceptor *from = nullptr;
  std::string peerName;
  std::chrono::steady_clock::time_point accepted;
  AheadServer *ahead = nullptr;
  /// --stdio's one connection, on standard input (`fd`), from now.
  static SessionConnection standardStreams(int fd, const Acceptor &from) {
    SessionConnection connection;
    connection.fd = fd;
    connection.from = &from;
    connection.peerName = "stdio";
    connection.accepted = std::chrono::steady_clock::now();
    return connection;
  }
};

class SessionLauncher {
public:
  /// `secrets` (the token) are wiped in every session process: they stay
  /// out of the memory kernels run in. `stdioOut`: --stdio's output, kept
  /// open in the session (-1 otherwise).
  SessionLauncher(const SessionLimits &limits, SessionSandbox &sandbox,
                  std::string assetRoot, std::vector<std::string *> secrets,
                  int stdioOut);
  ~SessionLauncher();

  /// Starts the session for `connection`, or refuses it (busy, no fork),
  /// telling its client why in the form it expects.
  void start(SessionConnection connection);
  bool full() const;
  /// Why a connection is refused when full().
  std::string busyReason() const;
  bool empty() const { return sessions.empty(); }
  /// Reaps the sessions that ended, logging how; the exit status of the
  /// last one, if one ended.
  std::optional<int> reap();
  /// SIGTERM to every session, SIGKILL to those left after --stop-grace.
  void stopAll();

private:
  struct Session {
    std::string label;
    std::string assets; // removed when the session process ends
  };
  /// In the forked child: becomes the session and serves it.
  [[noreturn]] void runSession(SessionConnection &connection,
                               const std::string &label,
                               const std::string &assets);
  /// In the child, with namespaces: forks the session itself, PID 1 of a
  /// namespace of its own, and stays its keeper.
  void enterSessionNamespacesKept(SessionConnection &connection,
                                  const std::string &assets);
  /// In the child: refuses the connection with `why` and ends.
  [[noreturn]] void refuseFromSession(SessionConnection &connection,
                                      const std::string &why);
  /// In the listener: refuses the connection with `why`.
  void refuseHere(SessionConnection &connection, const std::string &why);
  void forget(pid_t pid, const std::string &how);

  const SessionLimits &limits;
  SessionSandbox &sandbox;
  std::string assetRoot;
  std::vector<std::string *> secrets;
  int stdioOut;
  pid_t listenerPid;
  std::map<pid_t, Session> sessions;
  unsigned nextSession = 1;
};

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_SESSIONLAUNCHER_H
