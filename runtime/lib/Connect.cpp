//===- Connect.cpp - connect, authenticate, and make the session's stream ===//
#include "ExecutorRuntime/Connect.h"
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/SshConnect.h"
#include "ExecutorRuntime/Stream.h"
#include "ExecutorRuntime/TlsStream.h"
#include "ExecutorRuntime/UnixSocket.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <unistd.h>

using namespace llvm;

namespace executor_studio::runtime {

/// Seconds from the environment variable `name`, or `fallback` when it is
/// unset; false, with `why`, when it is not a number of seconds.
bool secondsFromEnvironment(const char *name, int64_t fallback,
                            int64_t &seconds, std::string &why) {
  seconds = fallback;
  const char *text = std::getenv(name);
  if (!text || !*text)
    return true;
  char *end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (!end || *end != 0 || value < 0) {
    why = std::string(name) + "='" + text +
          "' is not a whole number of seconds (0 or more)";
    return false;
  }
  seconds = value;
  return true;
}

namespace {
/// The token from $EXECUTOR_TOKEN, else the first line of
/// $EXECUTOR_TOKEN_FILE; false, with `why`, when that file cannot be read
/// or holds no token (the variable names the file the user meant).
bool defaultToken(std::string &token, std::string &why) {
  if (const char *text = std::getenv("EXECUTOR_TOKEN")) {
    token = text;
    return true;
  }
  const char *file = std::getenv("EXECUTOR_TOKEN_FILE");
  if (!file || !*file)
    return true;
  auto buffer = MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buffer) {
    why = std::string("cannot read EXECUTOR_TOKEN_FILE ") + file + ": " +
          buffer.getError().message();
    return false;
  }
  token = (*buffer)->getBuffer().split('\n').first.rtrim("\r").str();
  if (token.empty()) {
    why = std::string("EXECUTOR_TOKEN_FILE ") + file +
          " holds no token on its first line";
    return false;
  }
  return true;
}

struct SessionSecurity {
  ClientSecurity handshake;
  std::chrono::seconds liveness{30};
};

/// The options, completed from the environment; false, with `why` naming
/// the variable, when one of them cannot be used. The token is read only
/// when it is needed (`withToken`: not over a Unix socket).
bool sessionSecurity(const ClientOptions &options, const std::string &connected,
                     bool withToken, SessionSecurity &security,
                     std::string &why) {
  security.handshake.token = options.token;
  if (withToken && options.token.empty() &&
      !defaultToken(security.handshake.token, why))
    return false;
  security.handshake.tlsCA = options.tlsCA;
  if (security.handshake.tlsCA.empty())
    if (const char *ca = std::getenv("EXECUTOR_TLS_CA"))
      security.handshake.tlsCA = ca;
  std::string port, unused;
  splitAddress(connected, security.handshake.host, port, unused);
  security.handshake.timeout = options.handshakeTimeout;
  int64_t liveness = 30;
  if (!options.livenessTimeout.count() &&
      !secondsFromEnvironment("EXECUTOR_LIVENESS_TIMEOUT", 30, liveness, why))
    return false;
  security.liveness = options.livenessTimeout.count()
                          ? options.livenessTimeout
                          : std::chrono::seconds(liveness);
  return true;
}

Error failure(const std::string &why) {
  return createStringError(inconvertibleErrorCode(), why);
}
} // namespace

Expected<std::unique_ptr<Stream>>
connectTransport(const std::string &address, const ClientOptions &options) {
  // ssh:// (SshConnect.h): ssh authenticates and encrypts; no token, no TLS.
  if (isSshAddress(address)) {
    AddressParts parts;
    if (std::string problem = parseAddress(address, &parts); !problem.empty())
      return failure("address '" + address + "' " + problem);
    return connectSsh(parts, options);
  }
  // slurm: (SshConnect.h): a one-task step that srun starts; Slurm
  // authenticates.
  if (isSlurmAddress(address)) {
    AddressParts parts;
    if (std::string problem = parseAddress(address, &parts); !problem.empty())
      return failure("address '" + address + "' " + problem);
    return connectSlurm(parts, options);
  }
  std::string why, unixPath;
  bool overUnix = isUnixAddress(address, &unixPath);
  // The environment's settings first: one that cannot be used is the
  // error, not what the executor says without it.
  SessionSecurity security;
  if (!sessionSecurity(options, address, !overUnix, security, why))
    return failure(why);
  if (!overUnix && !security.handshake.token.empty())
    if (std::string weak = tokenWeakness(security.handshake.token);
        !weak.empty())
      return failure("the token (EXECUTOR_TOKEN, EXECUTOR_TOKEN_FILE or the "
                     "client's options) " + weak + "; use one such as "
                     "openssl rand -hex 32 makes");
  int fd = overUnix ? connectUnix(unixPath, options.connectTimeout, why)
                    : connectTo(address, options.connectTimeout, why);
  if (fd < 0)
    return failure(why);
  // TLS and the token (Handshake.h); a peer that accepts but never speaks
  // (ORC or a greeting) is not waited for longer than the handshake time-out.
  // A Unix socket's file mode decides who connects: no token and no TLS
  // there (executor-server asks for neither on one).
  if (overUnix) {
    security.handshake.token.clear();
    security.handshake.tlsCA.clear();
  } else {
    setLivenessTimeout(fd, security.liveness);
    if (!security.handshake.token.empty() &&
        security.handshake.tlsCA.empty() && !plaintextAllowedTo(fd, why)) {
      ::close(fd);
      return failure(why);
    }
  }
  std::unique_ptr<TlsStream> tls;
  if (!clientHandshake(fd, security.handshake, tls, why)) {
    if (!tls)
      ::close(fd);
    return failure(why);
  }
  if (tls)
    return tlsStream(std::move(tls));
  return overUnix ? unixStream(fd) : socketStream(fd);
}

} // namespace executor_studio::runtime
