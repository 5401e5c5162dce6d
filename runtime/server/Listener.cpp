//===- Listener.cpp - accepting connections, before any session ----------===//
//
// See Listener.h.
//
//===----------------------------------------------------------------------===//
#include "Listener.h"

#include "ExecutorRuntime/TlsStream.h"
#include "Acceptor.h"
#include "LaunchService.h"
#include "SessionLauncher.h"
#include "SessionProcess.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <unistd.h>

namespace executor_studio::runtime {

namespace {
using Clock = std::chrono::steady_clock;
int signalPipe[2] = {-1, -1};

void onSignal(int sig) {
  char c = static_cast<char>(sig);
  (void)!write(signalPipe[1], &c, 1);
}
} // namespace

bool routeSignalsToListener() {
  if (pipe2(signalPipe, O_CLOEXEC) != 0)
    return false;
  fcntl(signalPipe[0], F_SETFL, O_NONBLOCK);
  fcntl(signalPipe[1], F_SETFL, O_NONBLOCK);
  struct sigaction sa{};
  sa.sa_handler = onSignal;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD})
    sigaction(sig, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  return true;
}

/// A connection that has not authenticated (TLS, the token): the listener
/// drives it itself, never forks for it, and it does not count as a
/// session; it has its own budget (--max-pending, per address) and
/// time-out (--auth-timeout).
struct Listener::Pending {
  std::unique_ptr<PendingConnection> connection;
  const Acceptor *from;
  std::string peerName, host;
  Clock::time_point accepted;
  AheadServer *ahead = nullptr; // it had ORC's Setup (SetupAhead.h)
};

Listener::Listener(std::vector<std::unique_ptr<Acceptor>> &acceptors,
                   const ServerSecurity &security, const SessionLimits &limits,
                   SessionLauncher &launcher,
                   std::function<AheadServer &(const Acceptor &)> aheadFor)
    : acceptors(acceptors), security(security), limits(limits),
      launcher(launcher), aheadFor(std::move(aheadFor)),
      throttle(limits.authFailureDelay),
      authTimeout(std::min(limits.authTimeout, limits.handshakeTimeout)),
      quietSince(Clock::now()) {}

Listener::~Listener() = default;

void Listener::countQuietly(const std::string &verb, const std::string &why) {
  if (quietRefusals[{verb, why}]++ == 0 && quietRefusals.size() == 1)
    quietSince = Clock::now();
}

void Listener::reportQuietRefusals(bool now) {
  if (quietRefusals.empty() ||
      (!now && Clock::now() - quietSince < std::chrono::seconds(1)))
    return;
  for (auto &[what, count] : quietRefusals)
    logEvent(what.first + " " + std::to_string(count) + " connection" +
             (count == 1 ? "" : "s") + what.second);
  quietRefusals.clear();
}

Listener::Outcome Listener::settle(Pending &p,
                                   PendingConnection::State state) {
  switch (state) {
  case PendingConnection::State::Waiting:
    return Outcome::Waiting;
  case PendingConnection::State::Authenticated: {
    SessionConnection connection;
    connection.fd = p.connection->fd();
    connection.tls = p.connection->release();
    connection.from = p.from;
    connection.peerName = p.peerName;
    connection.accepted = p.accepted;
    connection.ahead = p.ahead;
    launcher.start(std::move(connection));
    return Outcome::Over;
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
    return Outcome::Over;
  }
  return Outcome::Over;
}

void Listener::dropPending(Pending &p) {
  if (--pendingByHost[p.host] == 0)
    pendingByHost.erase(p.host);
  p.connection.reset();
  --pendingCount;
}

void Listener::makeRoom(const std::string *host, const std::string &why) {
  // A budget is full: the oldest connection (from `host`, when it is that
  // address's budget) that has proved nothing makes room for the new one,
  // never the new one (issue 40: refusing newcomers let a flood of idle
  // sockets lock every client out). When all have finished TLS, the oldest.
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
  countQuietly("closed", " to make room: " + why +
                             " (the oldest that had proved nothing)");
  dropPending(*victim);
}

void Listener::advancePending(const std::vector<short> &revents) {
  for (size_t i = 0; i < revents.size(); ++i) {
    Pending &p = pending[i];
    short got = revents[i];
    bool alive = true;
    if (got || p.connection->proofWaiting() || p.connection->partial())
      alive = settle(p, p.connection->advance(throttle.mayCheck(), got)) ==
              Outcome::Waiting;
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
}

void Listener::acceptFrom(Acceptor &acceptor) {
  // Everything that waits, so a flood is turned away at its own pace.
  for (int n = 0; n < 256; ++n) {
    std::string peerName, host;
    int fd = acceptor.accept(peerName, host);
    if (fd < 0)
      break;
    auto accepted = Clock::now();
    // An acceptor whose connections need not authenticate (a Unix socket,
    // a server without TLS or token) sends ORC's Setup now and starts the
    // session when the client speaks (SetupAhead.h).
    bool open = !acceptor.authenticates(security);
    if (!open)
      if (auto wait = throttle.wait(host); wait.count() > 0) {
        std::string why = "a wrong token came from this address just now; "
                          "retry in " + formatDuration(wait);
        logEvent("refused " + peerName + ": " + why);
        refuseConnection(fd, why);
        close(fd);
        continue;
      }
    if (launcher.full()) {
      logEvent("refused " + peerName + ": " + launcher.busyReason());
      refuseConnection(fd, launcher.busyReason());
      close(fd);
      continue;
    }
    if (auto it = pendingByHost.find(host);
        it != pendingByHost.end() && it->second >= limits.maxPendingPerAddress)
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
    AheadServer *ahead = open ? &aheadFor(acceptor) : nullptr;
    pending.push_back(
        {std::make_unique<PendingConnection>(
             fd, security,
             accepted + (open ? limits.handshakeTimeout : authTimeout)),
         &acceptor, peerName, host, accepted, ahead});
    Pending &added = pending.back();
    if (settle(added, open ? added.connection->startAhead(
                                 ahead->transport->setupFrame())
                           : added.connection->start()) == Outcome::Over)
      dropPending(added);
  }
}

int Listener::run(bool untilNoSession) {
  int lastStatus = 0;
  bool running = true;
  std::vector<pollfd> polled;
  std::vector<short> pendingEvents;
  while (running && !(untilNoSession && launcher.empty())) {
    if (pendingCount < pending.size())
      pending.erase(std::remove_if(pending.begin(), pending.end(),
                                   [](const Pending &p) {
                                     return !p.connection;
                                   }),
                    pending.end());
    polled.clear();
    polled.push_back({signalPipe[0], POLLIN, 0});
    for (const auto &acceptor : acceptors)
      polled.push_back({acceptor->fd(), POLLIN, 0});
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
      if (std::optional<int> status = launcher.reap())
        lastStatus = *status;
    }
    // The pending connections: what came, then what timed out.
    size_t firstPending = 1 + acceptors.size();
    pendingEvents.clear();
    for (size_t i = 0; i < pending.size(); ++i)
      pendingEvents.push_back(polled[firstPending + i].revents);
    advancePending(pendingEvents);
    for (size_t i = 0; i < acceptors.size() && running; ++i)
      if (polled[1 + i].revents & POLLIN)
        acceptFrom(*acceptors[i]);
    reportQuietRefusals(false);
  }
  reportQuietRefusals(true);
  pending.clear();
  return lastStatus;
}

} // namespace executor_studio::runtime
