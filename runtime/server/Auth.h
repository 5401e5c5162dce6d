//===- Auth.h - who may open a session --------------------------*- C++ -*-===//
//
// The server's side of what comes before ORC (ExecutorRuntime/Handshake.h):
// the greeting, TLS, the token; the token file's checks at start; and, in
// the listener, a short delay per peer after each wrong token.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_AUTH_H
#define EXECUTORSERVER_AUTH_H

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <poll.h>
#include <string>

namespace executor_studio::runtime {
class TlsServerContext;
class TlsStream;

/// Reads the token (the first line, trailing blanks cut) from `path`.
/// Returns "" or the problem: the file cannot be read, is readable by its
/// group or by others, or holds a weak token (tokenWeakness, Handshake.h).
std::string loadTokenFile(const std::string &path, std::string &token);

/// Tells the client on `fd` why it is refused (one greeting line; never
/// blocks for long) before the caller closes it.
void refuseConnection(int fd, const std::string &why);

struct ServerSecurity {
  const TlsServerContext *tls = nullptr;
  std::string token;
  /// Whether a connection must be authenticated before it gets a session
  /// (TLS or a token: a plain server starts ORC at once).
  bool authenticates() const { return tls || !token.empty(); }
};

/// One connection that has not authenticated yet, driven by the listener's
/// poll loop: it never blocks (a short line to a new socket always fits its
/// buffer), so one listener holds many at once and forks a session only for
/// a client that has proved the token (Handshake.h for the lines).
class PendingConnection {
public:
  using Clock = std::chrono::steady_clock;
  enum class State { Waiting, Authenticated, Refused, WrongToken };

  PendingConnection(int fd, const ServerSecurity &security,
                    Clock::time_point deadline);
  ~PendingConnection();
  /// Sends the greeting (and starts TLS): what advance() would return.
  State start();
  /// For a connection that needs no authentication: sends ORC's Setup
  /// `frame` (SetupAhead.h), then waits for the client's first bytes, which
  /// it leaves for the session (Authenticated when they come).
  State startAhead(const std::string &frame);
  /// Whether it had ORC's Setup from startAhead.
  bool ahead() const { return stage == Stage::OrcWait; }
  /// Goes as far as the bytes that have come allow. `mayCheck` false holds
  /// a proof unchecked (the listener's throttle of wrong tokens); `revents`
  /// is what poll said of fd() (a hang-up ends a partial first message).
  State advance(bool mayCheck = true, short revents = 0);
  /// Whether part of the client's first message (a TLS record, an ORC
  /// header) has come and it waits for the rest: it is not polled for
  /// input then (the part keeps it readable), and advance() looks again
  /// each turn of the listener's loop.
  bool partial() const { return waitingForRest; }
  /// What to poll fd() for while Waiting.
  short events() const { return wanted; }
  int fd() const { return socket; }
  Clock::time_point deadline() const { return until; }
  /// Whether it has proved anything yet: it has finished TLS (an idle or
  /// half-open socket has not). When the pending budget is full the
  /// listener closes the oldest that has not, to make room.
  bool provedSomething() const { return tls && stage != Stage::Tls; }
  /// Whether a whole proof waits to be checked.
  bool proofWaiting() const { return stage == Stage::Check; }
  /// Why it was refused (for the log).
  const std::string &failure() const { return why; }
  /// Authenticated: the TLS stream (owns fd()) or null (then the caller
  /// owns fd()); the connection is handed over.
  std::unique_ptr<TlsStream> release();
  /// Tells the client `text` (a refusal), through TLS when it is up.
  void refuse(const std::string &text);

private:
  enum class Stage { TlsWait, Tls, Proof, Check, OrcWait, Done };
  State fail(const std::string &text, State state = State::Refused);
  bool send(const std::string &text);
  const ServerSecurity &security;
  int socket;
  Clock::time_point until;
  std::unique_ptr<TlsStream> tls;
  Stage stage = Stage::Proof;
  short wanted = POLLIN;
  std::string serverNonce, line, why;
  bool released = false;
  bool waitingForRest = false;
  /// Whether `bytes` have come, unread; false with waitingForRest while
  /// only part has, false with `closed` when the client went first.
  bool peekFor(size_t bytes, short revents, bool &closed);
  bool tlsBroken = false; // the TLS handshake failed: say nothing more
};

/// The listener's memory of wrong tokens: after one, the same peer (host)
/// is refused for `delay`; and across all peers at most 16 proofs are
/// judged wrong per `delay` (a guesser rotating through addresses gets no
/// more): beyond that, proofs wait to be checked.
class AuthThrottle {
public:
  explicit AuthThrottle(std::chrono::milliseconds delay) : delay(delay) {}
  void failed(const std::string &host);
  /// How long `host` must still wait (0: it may try now).
  std::chrono::milliseconds wait(const std::string &host);
  /// Whether a proof may be checked now (the global budget of wrong
  /// tokens is not spent).
  bool mayCheck();

private:
  std::chrono::milliseconds delay;
  std::map<std::string, std::chrono::steady_clock::time_point> until;
  std::deque<std::chrono::steady_clock::time_point> recent;
};

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_AUTH_H
