//===- Handshake.cpp - what comes before ORC, the client's side -----------===//
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/TlsStream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>

namespace executor_runtime {

void setLivenessTimeout(int fd, std::chrono::seconds timeout) {
  int seconds = static_cast<int>(std::max<int64_t>(timeout.count(), 1));
  int on = 1;
  int idle = std::max(1, seconds / 3);
  int interval = std::max(1, seconds / 6);
  int count = 3;
  unsigned userTimeout = static_cast<unsigned>(seconds) * 1000;
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof(interval));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof(count));
  setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &userTimeout,
             sizeof(userTimeout));
}

namespace {
using Clock = std::chrono::steady_clock;


enum class FirstBytes { Greeting, Orc, Closed, Silent };

/// Looks at what the server sends first, consuming nothing.
FirstBytes peekFirstBytes(int fd, Clock::time_point deadline) {
  constexpr size_t n = sizeof(kGreetingPrefix) - 1;
  char buffer[n];
  while (true) {
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, millisecondsUntil(deadline));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      return FirstBytes::Silent;
    ssize_t got = recv(fd, buffer, n, MSG_PEEK);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return FirstBytes::Closed;
    if (std::memcmp(buffer, kGreetingPrefix, static_cast<size_t>(got)) != 0)
      return FirstBytes::Orc;
    if (static_cast<size_t>(got) == n)
      return FirstBytes::Greeting;
    // A prefix of the greeting so far: wait for the rest.
    if (Clock::now() >= deadline)
      return FirstBytes::Silent;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

bool startsWith(const std::string &s, const char *prefix) {
  return s.rfind(prefix, 0) == 0;
}

const char *kNoTlsHere =
    "does not speak TLS (it began a plaintext session) and EXECUTOR_TLS_CA "
    "asks for TLS: start it with --tls-cert and --tls-key, or unset "
    "EXECUTOR_TLS_CA";
} // namespace

bool clientHandshake(int fd, const ClientSecurity &security,
                     std::unique_ptr<TlsStream> &tls, std::string &error) {
  Clock::time_point deadline = Clock::now() + security.timeout;
  std::string seconds = std::to_string(security.timeout.count()) + " ms";
  switch (peekFirstBytes(fd, deadline)) {
  case FirstBytes::Silent:
    error = "did not start an ORC session within " + seconds +
            " (is it an executor-server?)";
    return false;
  case FirstBytes::Closed:
    error = "closed the connection before the session started (its log says "
            "why)";
    return false;
  case FirstBytes::Orc:
    if (!security.tlsCA.empty()) {
      error = kNoTlsHere;
      return false;
    }
    return true;
  case FirstBytes::Greeting:
    break;
  }
  // The greeting line, then whatever it asks for. Inside TLS the lines come
  // through the TLS stream.
  auto readLineAny = [&](std::string &line) {
    return tls ? tls->readLine(line, deadline)
               : readLine(fd, line, deadline);
  };
  auto writeAny = [&](const std::string &text) {
    return tls ? tls->writeAll(text.data(), text.size())
               : writeAll(fd, text.data(), text.size());
  };
  std::string line;
  if (!readLineAny(line)) {
    error = "broke off its greeting";
    return false;
  }
  if (line == kGreetTls) {
    if (security.tlsCA.empty()) {
      error = "requires TLS (it was started with --tls-cert): set "
              "EXECUTOR_TLS_CA to the file of the CA certificate that signed "
              "its certificate";
      return false;
    }
    std::string why;
    tls = TlsStream::connect(security.tlsCA, security.host, fd, deadline, why);
    if (!tls) {
      error = "TLS handshake failed: " + why;
      return false;
    }
    if (!readLineAny(line)) {
      error = "broke off its greeting inside TLS";
      return false;
    }
  } else if (!security.tlsCA.empty() && !startsWith(line, kGreetRefused)) {
    error = kNoTlsHere;
    return false;
  }
  if (startsWith(line, kGreetRefused)) {
    error = "refused the session: " + line.substr(sizeof(kGreetRefused) - 1);
    return false;
  }
  if (line == kGreetReady)
    return true;
  if (line != kGreetToken) {
    error = "sent an unknown greeting '" + line.substr(0, 80) + "'";
    return false;
  }
  if (security.token.empty()) {
    error = std::string("refused the session: ") + kWrongToken +
            " (it needs a token: set EXECUTOR_TOKEN or EXECUTOR_TOKEN_FILE)";
    return false;
  }
  if (!writeAny(kTokenLinePrefix + security.token + "\n") ||
      !readLineAny(line)) {
    error = "closed the connection after the token (its log says why)";
    return false;
  }
  if (startsWith(line, kGreetRefused)) {
    error = "refused the session: " + line.substr(sizeof(kGreetRefused) - 1);
    return false;
  }
  if (line != "OK") {
    error = "answered the token with '" + line.substr(0, 80) + "'";
    return false;
  }
  return true;
}

} // namespace executor_runtime
