//===- Auth.cpp - who may open a session ----------------------------------===//
#include "Auth.h"
#include "LaunchService.h"
#include "SetupAhead.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/TlsStream.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace executor_studio::runtime {

std::string loadTokenFile(const std::string &path, std::string &token) {
  struct stat st{};
  if (stat(path.c_str(), &st) != 0)
    return "cannot read the token file " + path + ": " + std::strerror(errno);
  if (st.st_mode & (S_IRWXG | S_IRWXO)) {
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%04o", st.st_mode & 07777);
    return "the token file " + path + " is readable by its group or others "
           "(mode " + mode + "): anyone who reads it can run code here; "
           "make it private with chmod 600 " + path;
  }
  std::ifstream in(path);
  if (!in || !std::getline(in, token))
    return "cannot read a token from " + path;
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ' ||
                            token.back() == '\t'))
    token.pop_back();
  if (std::string weak = tokenWeakness(token); !weak.empty())
    return "the token in " + path + " " + weak +
           ": anyone who guesses it runs code here (make one with openssl "
           "rand -hex 32 > " + path + ")";
  return "";
}

void refuseConnection(int fd, const std::string &why) {
  std::string line = kGreetRefused + why + "\n";
  // A new socket's buffer takes the line at once; never wait on a client.
  (void)!::send(fd, line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

PendingConnection::PendingConnection(int fd, const ServerSecurity &security,
                                     Clock::time_point deadline)
    : security(security), socket(fd), until(deadline) {}

PendingConnection::~PendingConnection() {
  if (released)
    return;
  if (tls)
    tls.reset(); // closes the socket
  else
    ::close(socket);
}

std::unique_ptr<TlsStream> PendingConnection::release() {
  released = true;
  return std::move(tls);
}

PendingConnection::State PendingConnection::fail(const std::string &text,
                                                 State state) {
  why = text;
  stage = Stage::Done;
  return state;
}

bool PendingConnection::send(const std::string &text) {
  if (tls)
    return tls->writeAll(text.data(), text.size());
  return ::send(socket, text.data(), text.size(),
                MSG_NOSIGNAL | MSG_DONTWAIT) ==
         static_cast<ssize_t>(text.size());
}

void PendingConnection::refuse(const std::string &text) {
  if (stage == Stage::TlsWait) // the client waits for TLS: say nothing
    return;
  if (stage == Stage::OrcWait) { // it has ORC's Setup: an ORC Hangup
    std::string hangup = orcHangupFrame(text);
    (void)!::send(socket, hangup.data(), hangup.size(),
                  MSG_NOSIGNAL | MSG_DONTWAIT);
    return;
  }
  if (!tls)
    refuseConnection(socket, text);
  else if (stage != Stage::Tls && !tlsBroken) // not in the middle of TLS
    send(kGreetRefused + text + "\n");
}

PendingConnection::State PendingConnection::start() {
  if (security.tls) {
    std::string greeting = std::string(kGreetTls) + "\n";
    if (!send(greeting))
      return fail("the client went before TLS started");
    // No TLS state before the client's first bytes (issue 40): thousands
    // of idle connections cost a descriptor each, not TLS's buffers.
    stage = Stage::TlsWait;
    wanted = POLLIN;
    return State::Waiting;
  }
  stage = Stage::Proof;
  if (!makeNonce(serverNonce))
    return fail("cannot make a nonce: OpenSSL's random generator failed");
  if (!send(kGreetChallenge + serverNonce + "\n"))
    return fail("the client went during the greeting");
  wanted = POLLIN;
  return State::Waiting;
}

PendingConnection::State
PendingConnection::startAhead(const std::string &frame) {
  // A new socket's buffer takes the Setup (a few KiB) at once.
  if (::send(socket, frame.data(), frame.size(),
             MSG_NOSIGNAL | MSG_DONTWAIT) !=
      static_cast<ssize_t>(frame.size()))
    return fail("the client went before ORC's setup was sent");
  stage = Stage::OrcWait;
  wanted = POLLIN;
  return State::Waiting;
}

namespace {
/// The largest first TLS record (a ClientHello) waited for whole.
constexpr size_t kFirstRecord = 5 + 16384 + 256;
/// An ORC message's header.
constexpr size_t kOrcHeader = 32;
} // namespace

bool PendingConnection::peekFor(size_t bytes, short revents, bool &closed) {
  // (The listener is one thread: one buffer serves every connection.)
  static char buffer[kFirstRecord];
  closed = false;
  ssize_t got = ::recv(socket, buffer, std::min(bytes, sizeof(buffer)),
                       MSG_PEEK | MSG_DONTWAIT);
  if (got >= static_cast<ssize_t>(std::min(bytes, sizeof(buffer)))) {
    waitingForRest = false;
    wanted = POLLIN;
    return true;
  }
  if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
                   errno != EINTR) ||
      (got > 0 && (revents & (POLLRDHUP | POLLHUP | POLLERR)))) {
    closed = true;
    return false;
  }
  // Part of it: not polled for input (it would stay readable), looked at
  // again each turn; a hang-up still shows.
  waitingForRest = got > 0;
  wanted = waitingForRest ? POLLRDHUP : POLLIN;
  return false;
}

PendingConnection::State PendingConnection::advance(bool mayCheck,
                                                    short revents) {
  if (stage == Stage::Done)
    return State::Refused;
  if (stage == Stage::OrcWait) {
    // The client's first ORC header, whole: a half-open connection (part
    // of a header) gets no process either (issue 40).
    bool closed = false;
    if (peekFor(kOrcHeader, revents, closed)) {
      stage = Stage::Done;
      return State::Authenticated; // its session reads what came
    }
    if (!closed)
      return State::Waiting;
    return fail("the client closed the connection before its session "
                "started");
  }
  if (stage == Stage::TlsWait) {
    // The client's first TLS record (its ClientHello), whole, before any
    // TLS state: a half-open one costs no buffers (issue 40). What is not
    // a TLS handshake record goes to OpenSSL at once, which says why.
    bool closed = false;
    if (!peekFor(5, revents, closed)) {
      if (!closed)
        return State::Waiting;
      return fail("the client closed the connection before TLS started");
    }
    unsigned char head[5];
    if (::recv(socket, head, sizeof(head), MSG_PEEK | MSG_DONTWAIT) == 5 &&
        head[0] == 0x16) {
      size_t record = 5 + (size_t(head[3]) << 8 | head[4]);
      if (!peekFor(std::min(record, kFirstRecord), revents, closed)) {
        if (!closed)
          return State::Waiting;
        return fail("the client closed the connection in the middle of its "
                    "TLS handshake");
      }
    }
    std::string error;
    tls = TlsStream::beginAccept(*security.tls, socket, error);
    if (!tls)
      return fail(error);
    stage = Stage::Tls;
  }
  if (stage == Stage::Tls) {
    std::string error;
    int rc = tls->continueAccept(wanted, error);
    if (rc < 0) {
      tlsBroken = true; // nothing more goes through it
      std::string hint;
      if (error.find("wrong version number") != std::string::npos ||
          error.find("http request") != std::string::npos ||
          error.find("packet length too long") != std::string::npos ||
          error.find("record layer failure") != std::string::npos)
        hint = " (the client does not speak TLS: give it EXECUTOR_TLS_CA)";
      return fail("TLS handshake failed: " + error + hint);
    }
    if (rc == 0)
      return State::Waiting;
    if (security.token.empty()) {
      stage = Stage::Done;
      if (!send(std::string(kGreetReady) + "\n"))
        return fail("the client went during the greeting");
      return State::Authenticated;
    }
    stage = Stage::Proof;
    wanted = POLLIN;
    if (!makeNonce(serverNonce))
      return fail("cannot make a nonce: OpenSSL's random generator failed");
    if (!send(kGreetChallenge + serverNonce + "\n"))
      return fail("the client went during the greeting");
  }
  // One byte at a time: nothing after the proof line is taken from ORC
  // (a client sends nothing more before the server's proof).
  while (stage == Stage::Proof) {
    char c;
    ssize_t got = tls ? tls->read(&c, 1, /*dontWait=*/true)
                      : ::recv(socket, &c, 1, MSG_DONTWAIT);
    if (got == 1) {
      if (c == '\n') {
        stage = Stage::Check;
        break;
      }
      if (line.size() >= 512)
        return fail("the client sent a line of more than 512 bytes instead "
                    "of the token's proof");
      line.push_back(c);
      continue;
    }
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
      return State::Waiting;
    return fail(line.empty() ? "the client closed the connection without "
                               "proving a token (it has none, or another "
                               "executor's; Catalyst's runtime speaks no "
                               "token: serve it with --no-token on a "
                               "loopback address or a Unix socket)"
                             : "the client closed the connection in the "
                               "middle of its proof");
  }
  if (stage != Stage::Check || !mayCheck)
    return State::Waiting;
  // "EXECUTOR-PROOF <client nonce> <proof>", and " <connection name>"
  // inside TLS.
  std::string given, clientNonce, channel;
  if (line.rfind(kProofLinePrefix, 0) == 0) {
    std::string rest = line.substr(sizeof(kProofLinePrefix) - 1);
    size_t space = rest.find(' ');
    if (space != std::string::npos) {
      clientNonce = rest.substr(0, space);
      given = rest.substr(space + 1);
      if (size_t at = given.find(' '); tls && at != std::string::npos) {
        channel = given.substr(at + 1);
        given.resize(at);
      }
    }
  }
  // Inside TLS the proof holds for this connection only: one made on
  // another (a man in the middle that ended the client's TLS and relays
  // its proof here) is refused, and said to be relayed.
  std::string binding, ownChannel;
  if (tls) {
    const char *why = nullptr;
    if (!tlsChannel(*tls, binding, ownChannel))
      why = "cannot bind the token's proof to the TLS connection: OpenSSL's "
            "exporter failed";
    else if (channel.empty() && isNonce(clientNonce))
      why = "the client's proof is not bound to the TLS connection (a "
            "client older than this executor-server): update the client";
    else if (!channel.empty() && channel != ownChannel)
      why = "the client's proof was made on another TLS connection: "
            "something between the client and this executor-server (a man "
            "in the middle, a TLS-terminating proxy) ended the client's TLS "
            "and relayed its proof";
    if (why) {
      refuse(why);
      return fail(why);
    }
  }
  std::string expected = tokenProof(security.token, kClientProofLabel,
                                    serverNonce, clientNonce, binding);
  if (!isNonce(clientNonce) || clientNonce == serverNonce ||
      !proofsEqual(given, expected)) {
    refuse(kWrongToken);
    return fail(kWrongToken, State::WrongToken);
  }
  stage = Stage::Done;
  std::string proof = tokenProof(security.token, kServerProofLabel,
                                 serverNonce, clientNonce, binding);
  if (proof.empty() || !send(kProofLinePrefix + proof + "\n"))
    return fail("the client went after its proof");
  return State::Authenticated;
}

namespace {
/// Wrong tokens judged across all peers per --auth-failure-delay.
constexpr size_t kGlobalWrongTokens = 16;
} // namespace

void AuthThrottle::failed(const std::string &host) {
  auto now = std::chrono::steady_clock::now();
  if (until.size() >= 4096) // a guesser rotating through addresses
    for (auto it = until.begin(); it != until.end();)
      it = it->second <= now ? until.erase(it) : std::next(it);
  until[host] = now + delay;
  recent.push_back(now);
  while (recent.size() > kGlobalWrongTokens)
    recent.pop_front();
}

bool AuthThrottle::mayCheck() {
  auto now = std::chrono::steady_clock::now();
  while (!recent.empty() && now - recent.front() >= delay)
    recent.pop_front();
  return recent.size() < kGlobalWrongTokens;
}

std::chrono::milliseconds AuthThrottle::wait(const std::string &host) {
  auto it = until.find(host);
  if (it == until.end())
    return std::chrono::milliseconds(0);
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      it->second - std::chrono::steady_clock::now());
  if (left.count() <= 0) {
    until.erase(it);
    return std::chrono::milliseconds(0);
  }
  return left;
}

} // namespace executor_studio::runtime
