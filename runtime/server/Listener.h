//===- Listener.h - accepting connections, before any session ----*- C++ -*-===//
//
// executor-server's listening process: accepts on every Acceptor, keeps
// the connections that have not authenticated yet (TLS, the token; or,
// needing none, that have heard ORC's Setup and not spoken yet) in the
// listener itself with no process, within their budgets (--max-pending,
// --max-pending-per-address: when one is full the oldest connection that
// has proved nothing makes room, never the newcomer) and time-outs, and
// hands each one that may have a session to the SessionLauncher. Signals
// reach it through a pipe; SIGCHLD reaps sessions, any other stops it.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_LISTENER_H
#define EXECUTORSERVER_LISTENER_H

#include "Auth.h"
#include "Limits.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace executor_studio::runtime {
class Acceptor;
struct AheadServer;
class SessionLauncher;

/// Signals (SIGINT, SIGTERM, SIGHUP, SIGCHLD) as bytes on a pipe the
/// listener polls; SIGPIPE ignored. False when the pipe cannot be made.
bool routeSignalsToListener();

class Listener {
public:
  /// `aheadFor` gives the server whose Setup a connection of an acceptor
  /// that needs no authentication hears (SetupAhead.h).
  Listener(std::vector<std::unique_ptr<Acceptor>> &acceptors,
           const ServerSecurity &security, const SessionLimits &limits,
           SessionLauncher &launcher,
           std::function<AheadServer &(const Acceptor &)> aheadFor);
  ~Listener();
  /// Serves until a signal other than SIGCHLD, or, with `untilNoSession`
  /// (--stdio), until no session is left; the exit status of the last
  /// session that ended (0 if none did).
  int run(bool untilNoSession);

private:
  struct Pending;
  enum class Outcome { Waiting, Over };
  Outcome settle(Pending &p, PendingConnection::State state);
  void dropPending(Pending &p);
  void makeRoom(const std::string *host, const std::string &why);
  /// Accepts what waits on `acceptor` (at most a turn's worth).
  void acceptFrom(Acceptor &acceptor);
  /// Advances the pending connections by what poll said of them.
  void advancePending(const std::vector<short> &revents);
  /// What a flood's connections come to is logged once a second, counted:
  /// "VERB N connections WHY".
  void countQuietly(const std::string &verb, const std::string &why);
  void reportQuietRefusals(bool now);

  std::vector<std::unique_ptr<Acceptor>> &acceptors;
  const ServerSecurity &security;
  const SessionLimits &limits;
  SessionLauncher &launcher;
  std::function<AheadServer &(const Acceptor &)> aheadFor;
  AuthThrottle throttle;
  std::chrono::milliseconds authTimeout;
  std::vector<Pending> pending;
  /// Pending connections still open (`pending` keeps holes until the end
  /// of a turn: a flood of thousands is not moved once for each that goes).
  size_t pendingCount = 0;
  std::map<std::string, unsigned> pendingByHost;
  std::map<std::pair<std::string, std::string>, unsigned> quietRefusals;
  std::chrono::steady_clock::time_point quietSince;
};

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_LISTENER_H
