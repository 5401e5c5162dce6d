//===- Handshake.cpp - what comes before ORC, the client's side -----------===//
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/TlsStream.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <arpa/inet.h>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>

namespace executor_studio::runtime {

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

bool plaintextAllowedTo(int fd, std::string &why) {
  sockaddr_storage peer{};
  socklen_t length = sizeof(peer);
  if (getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &length) != 0)
    return true; // not an IP socket
  bool loopback = false;
  if (peer.ss_family == AF_INET)
    loopback = (ntohl(reinterpret_cast<sockaddr_in &>(peer).sin_addr.s_addr) >>
                24) == 127;
  else if (peer.ss_family == AF_INET6) {
    const in6_addr &a = reinterpret_cast<sockaddr_in6 &>(peer).sin6_addr;
    loopback = IN6_IS_ADDR_LOOPBACK(&a) ||
               (IN6_IS_ADDR_V4MAPPED(&a) && a.s6_addr[12] == 127);
  } else
    return true;
  const char *insecure = std::getenv("EXECUTOR_INSECURE_PLAINTEXT");
  if (loopback || (insecure && std::string(insecure) == "1"))
    return true;
  why = "refusing a session with a token in plaintext to an address that "
        "is not loopback: whoever is on the path would see the kernels and "
        "their data and could take the session over; use TLS (set "
        "EXECUTOR_TLS_CA, start the executor with --tls-cert and --tls-key), "
        "or set EXECUTOR_INSECURE_PLAINTEXT=1 to accept that";
  return false;
}

std::string privateRuntimeDirectory() {
  const char *runtime = std::getenv("XDG_RUNTIME_DIR");
  if (runtime && *runtime && runtime[0] == '/')
    return std::string(runtime) + "/executor-studio";
  return "/tmp/executor-studio-" + std::to_string(geteuid());
}

std::string generatedTokenPath(unsigned port) {
  return privateRuntimeDirectory() + "/tcp-" + std::to_string(port) + ".token";
}

std::string makePrivateRuntimeDirectory() {
  std::string dir = privateRuntimeDirectory();
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return "cannot make " + dir + ": " + std::strerror(errno);
  struct stat st{};
  if (lstat(dir.c_str(), &st) != 0)
    return "cannot reach " + dir + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid())
    return dir + " is not a directory of this user's (uid " +
           std::to_string(geteuid()) + "): someone else made it first";
  if ((st.st_mode & 077) && chmod(dir.c_str(), 0700) != 0)
    return "cannot make " + dir + " private: " + std::strerror(errno);
  return "";
}

namespace {
/// The token an executor-server on the loopback peer of `fd` generated for
/// this user, or "" (not loopback TCP, no such file, not readable here).
std::string generatedTokenOfPeer(int fd) {
  sockaddr_storage peer{};
  socklen_t length = sizeof(peer);
  if (getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &length) != 0)
    return "";
  unsigned port = 0;
  if (peer.ss_family == AF_INET) {
    auto &in = reinterpret_cast<sockaddr_in &>(peer);
    if ((ntohl(in.sin_addr.s_addr) >> 24) != 127)
      return "";
    port = ntohs(in.sin_port);
  } else if (peer.ss_family == AF_INET6) {
    auto &in6 = reinterpret_cast<sockaddr_in6 &>(peer);
    if (!IN6_IS_ADDR_LOOPBACK(&in6.sin6_addr))
      return "";
    port = ntohs(in6.sin6_port);
  } else {
    return "";
  }
  std::ifstream in(generatedTokenPath(port));
  std::string token;
  if (!in || !std::getline(in, token))
    return "";
  return token;
}
} // namespace

namespace {
std::string toHex(const unsigned char *bytes, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (size_t i = 0; i < size; ++i) {
    hex.push_back(digits[bytes[i] >> 4]);
    hex.push_back(digits[bytes[i] & 15]);
  }
  return hex;
}
} // namespace

bool makeNonce(std::string &hex) {
  unsigned char bytes[kNonceBytes];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1)
    return false;
  hex = toHex(bytes, sizeof(bytes));
  OPENSSL_cleanse(bytes, sizeof(bytes));
  return true;
}

bool isNonce(const std::string &text) {
  return text.size() == 2 * kNonceBytes &&
         text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string tokenProof(const std::string &token, const char *label,
                       const std::string &serverNonce,
                       const std::string &clientNonce,
                       const std::string &binding) {
  // label NUL server-nonce NUL client-nonce [NUL binding]: no two inputs
  // run together (the nonces are hex, the binding of fixed size and last).
  std::string message = std::string(label) + '\0' + serverNonce + '\0' +
                        clientNonce;
  if (!binding.empty())
    message += '\0' + binding;
  unsigned char mac[EVP_MAX_MD_SIZE];
  size_t length = 0;
  if (!EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, token.data(),
                 token.size(),
                 reinterpret_cast<const unsigned char *>(message.data()),
                 message.size(), mac, sizeof(mac), &length))
    return "";
  return toHex(mac, length);
}

bool tlsChannel(TlsStream &tls, std::string &binding, std::string &name) {
  binding = tls.exportKeyingMaterial(kProofExporterLabel, kExporterContext, 32);
  std::string material =
      tls.exportKeyingMaterial(kChannelExporterLabel, kExporterContext, 16);
  name = toHex(reinterpret_cast<const unsigned char *>(material.data()),
               material.size());
  return !binding.empty() && !name.empty();
}

bool proofsEqual(const std::string &given, const std::string &expected) {
  return !expected.empty() && given.size() == expected.size() &&
         CRYPTO_memcmp(given.data(), expected.data(), expected.size()) == 0;
}

std::string tokenWeakness(const std::string &token) {
  constexpr size_t kMinLength = 16, kMinDistinct = 16;
  if (token.size() < kMinLength)
    return "is " + std::to_string(token.size()) + " bytes long; use at least " +
           std::to_string(kMinLength);
  bool seen[256] = {};
  size_t distinct = 0;
  for (unsigned char c : token)
    if (!seen[c]) {
      seen[c] = true;
      ++distinct;
    }
  if (distinct == 1)
    return "is one character repeated";
  // Fewer distinct bytes than that: long enough to carry 128 bits at the
  // alphabet it shows (64 hex digits carry 256, whichever digits occur).
  double bits = static_cast<double>(token.size()) *
                std::log2(static_cast<double>(distinct));
  if (distinct < kMinDistinct && bits < 128)
    return "has only " + std::to_string(distinct) +
           " distinct bytes in " + std::to_string(token.size()) +
           ", too few to be guessed only slowly";
  return "";
}

namespace {
using Clock = std::chrono::steady_clock;


enum class FirstBytes { Greeting, Orc, Closed, Silent };

/// Looks at what the server sends first, consuming nothing.
FirstBytes peekFirstBytes(int fd, Clock::time_point deadline) {
  constexpr size_t n = sizeof(kGreetingPrefix) - 1;
  char buffer[n];
  while (true) {
    if (pollUntil(fd, POLLIN, deadline) <= 0)
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
/// A server that never asked for the token cannot have proved it.
const char *kNoProof =
    "started a session without proving that it knows the token (it asked "
    "for none): a client with a token (EXECUTOR_TOKEN, EXECUTOR_TOKEN_FILE) "
    "sends nothing to an executor that cannot prove it; unset the token to "
    "use an executor that has none";
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
    if (!security.token.empty()) {
      error = kNoProof;
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
  if (line == kGreetReady) {
    if (!security.token.empty()) {
      error = kNoProof;
      return false;
    }
    return true;
  }
  if (line == kGreetToken) {
    error = "asked for the token in clear text (a fake executor, or an "
            "executor-server older than this client): nothing was sent to "
            "it; this client only proves its token by challenge-response";
    return false;
  }
  if (!startsWith(line, kGreetChallenge)) {
    error = "sent an unknown greeting '" + line.substr(0, 80) + "'";
    return false;
  }
  std::string serverNonce = line.substr(sizeof(kGreetChallenge) - 1);
  if (!isNonce(serverNonce)) {
    error = "sent a malformed challenge '" + line.substr(0, 80) + "'";
    return false;
  }
  // No token of its own: the one a local executor-server of this user
  // generated for its port, if there is one (another user cannot read it).
  std::string token = security.token;
  if (token.empty())
    token = generatedTokenOfPeer(fd);
  if (token.empty()) {
    error = std::string("refused the session: ") + kWrongToken +
            " (it needs a token: set EXECUTOR_TOKEN or EXECUTOR_TOKEN_FILE)";
    return false;
  }
  std::string clientNonce;
  if (!makeNonce(clientNonce)) {
    error = "cannot make a nonce: OpenSSL's random generator failed";
    return false;
  }
  // Inside TLS the proofs hold for this connection only (a relay's two
  // connections have two bindings), and the line names it.
  std::string binding, channel;
  if (tls && !tlsChannel(*tls, binding, channel)) {
    error = "cannot bind the token's proof to the TLS connection: OpenSSL's "
            "exporter failed";
    return false;
  }
  std::string proof = tokenProof(token, kClientProofLabel,
                                 serverNonce, clientNonce, binding);
  std::string expected = tokenProof(token, kServerProofLabel,
                                    serverNonce, clientNonce, binding);
  if (proof.empty() || expected.empty()) {
    error = "cannot compute the token's proof: OpenSSL's HMAC failed";
    return false;
  }
  if (!writeAny(std::string(kProofLinePrefix) + clientNonce + " " + proof +
                (tls ? " " + channel : "") + "\n") ||
      !readLineAny(line)) {
    error = "did not answer the token's proof (its log says why)";
    return false;
  }
  if (startsWith(line, kGreetRefused)) {
    error = "refused the session: " + line.substr(sizeof(kGreetRefused) - 1);
    return false;
  }
  if (!startsWith(line, kProofLinePrefix) ||
      !proofsEqual(line.substr(sizeof(kProofLinePrefix) - 1), expected)) {
    error = "did not prove that it knows the token (a fake executor, or one "
            "with another token): nothing was sent to it";
    return false;
  }
  return true;
}

} // namespace executor_studio::runtime
