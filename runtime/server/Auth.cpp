//===- Auth.cpp - who may open a session ----------------------------------===//
#include "Auth.h"
#include "LaunchService.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/TlsStream.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>

namespace executor_runtime {

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
  if (token.size() < kMinTokenLength)
    return "the token in " + path + " is " + std::to_string(token.size()) +
           " bytes long; use at least " + std::to_string(kMinTokenLength) +
           " (e.g. openssl rand -hex 32 > " + path + ")";
  return "";
}

bool tokensEqual(const std::string &given, const std::string &expected) {
  unsigned char a[EVP_MAX_MD_SIZE], b[EVP_MAX_MD_SIZE];
  unsigned int na = 0, nb = 0;
  if (!EVP_Digest(given.data(), given.size(), a, &na, EVP_sha256(), nullptr) ||
      !EVP_Digest(expected.data(), expected.size(), b, &nb, EVP_sha256(),
                  nullptr) ||
      na != nb)
    return false;
  return CRYPTO_memcmp(a, b, na) == 0;
}

void refuseConnection(int fd, const std::string &why) {
  std::string line = kGreetRefused + why + "\n";
  // A new socket's buffer takes the line at once; never wait on a client.
  (void)!::send(fd, line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

HandshakeResult serverHandshake(int fd, const ServerSecurity &security,
                                std::chrono::steady_clock::time_point deadline,
                                std::unique_ptr<TlsStream> &tls,
                                void (*onWrongToken)()) {
  auto send = [&](const std::string &text) {
    return tls ? tls->writeAll(text.data(), text.size())
               : writeAll(fd, text.data(), text.size());
  };
  if (security.tls) {
    std::string greeting = std::string(kGreetTls) + "\n";
    if (!writeAll(fd, greeting.data(), greeting.size())) {
      logEvent("refused: the client went before TLS started");
      return HandshakeResult::Refused;
    }
    std::string why;
    tls = TlsStream::accept(*security.tls, fd, deadline, why);
    if (!tls) {
      std::string hint;
      if (why.find("wrong version number") != std::string::npos ||
          why.find("http request") != std::string::npos ||
          why.find("packet length too long") != std::string::npos ||
          why.find("record layer failure") != std::string::npos)
        hint = " (the client does not speak TLS: give it EXECUTOR_TLS_CA)";
      if (why.find("did not finish in time") != std::string::npos)
        hint = " (--handshake-timeout)";
      logEvent("refused: TLS handshake failed: " + why + hint);
      return HandshakeResult::Refused;
    }
  }
  if (security.token.empty()) {
    if (tls && !send(std::string(kGreetReady) + "\n")) {
      logEvent("refused: the client went during the greeting");
      return HandshakeResult::Refused;
    }
    return HandshakeResult::Ok;
  }
  std::string line;
  bool got = send(std::string(kGreetToken) + "\n") &&
             (tls ? tls->readLine(line, deadline)
                  : readLine(fd, line, deadline));
  std::string given;
  if (got && line.rfind(kTokenLinePrefix, 0) == 0)
    given = line.substr(sizeof(kTokenLinePrefix) - 1);
  if (!got) {
    // Silence is not a guess: not throttled.
    logEvent(std::string("refused: no token came within the handshake "
                         "time-out (--handshake-timeout)"));
    return HandshakeResult::Refused;
  }
  if (!tokensEqual(given, security.token)) {
    if (onWrongToken)
      onWrongToken();
    send(std::string(kGreetRefused) + kWrongToken + "\n");
    logEvent(std::string("refused: ") + kWrongToken);
    return HandshakeResult::WrongToken;
  }
  if (!send("OK\n")) {
    logEvent("refused: the client went after its token");
    return HandshakeResult::Refused;
  }
  return HandshakeResult::Ok;
}

void AuthThrottle::failed(const std::string &host) {
  until[host] = std::chrono::steady_clock::now() + delay;
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

} // namespace executor_runtime
