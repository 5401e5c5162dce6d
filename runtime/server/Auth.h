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
#include <map>
#include <memory>
#include <string>

namespace executor_runtime {
class TlsServerContext;
class TlsStream;

/// The shortest token executor-server accepts.
inline constexpr size_t kMinTokenLength = 16;

/// Reads the token (the first line, trailing blanks cut) from `path`.
/// Returns "" or the problem: the file cannot be read, is readable by its
/// group or by others, or holds a token shorter than kMinTokenLength.
std::string loadTokenFile(const std::string &path, std::string &token);

/// Compares in time that does not depend on where they differ (nor on
/// their lengths: both are hashed first).
bool tokensEqual(const std::string &given, const std::string &expected);

/// Tells the client on `fd` why it is refused (one greeting line; never
/// blocks for long) before the caller closes it.
void refuseConnection(int fd, const std::string &why);

struct ServerSecurity {
  const TlsServerContext *tls = nullptr;
  std::string token;
};

enum class HandshakeResult { Ok, Refused, WrongToken };

/// In a session process: greets the client on `fd`, runs TLS (then `tls`
/// owns `fd`) and checks the token, all by `deadline`. A refusal is logged
/// and told to the client; `onWrongToken` runs before the client hears it.
HandshakeResult serverHandshake(int fd, const ServerSecurity &security,
                                std::chrono::steady_clock::time_point deadline,
                                std::unique_ptr<TlsStream> &tls,
                                void (*onWrongToken)());

/// The listener's memory of wrong tokens: after one, the same peer (host)
/// is refused for `delay`.
class AuthThrottle {
public:
  explicit AuthThrottle(std::chrono::milliseconds delay) : delay(delay) {}
  void failed(const std::string &host);
  /// How long `host` must still wait (0: it may try now).
  std::chrono::milliseconds wait(const std::string &host);

private:
  std::chrono::milliseconds delay;
  std::map<std::string, std::chrono::steady_clock::time_point> until;
};

} // namespace executor_runtime

#endif // EXECUTORSERVER_AUTH_H
