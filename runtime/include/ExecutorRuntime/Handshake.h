//===- Handshake.h - what comes before ORC on the executor wire -*- C++ -*-===//
//
// Before ORC's own handshake an executor-server may have something to say
// first, always as one '\n'-terminated line that starts "EXECUTOR-" (nine
// bytes no ORC message starts with: read as an ORC header they are a size of
// about 2^62):
//   EXECUTOR-REFUSED <why>   the session is refused (busy, throttled, ...);
//   EXECUTOR-TLS             TLS follows (the server has a certificate);
//                            inside it the server says EXECUTOR-TOKEN or
//                            EXECUTOR-READY;
//   EXECUTOR-TOKEN           send "EXECUTOR-TOKEN <token>"; the answer is
//                            "OK" or EXECUTOR-REFUSED.
// A server without TLS or token starts ORC at once (what Catalyst's
// executor client expects). So a client without TLS hears at once that the
// server wants it, a TLS client hears at once that the server has none, and
// the token only ever travels after the server asked for it (inside TLS
// when the server has TLS).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_HANDSHAKE_H
#define EXECUTORRUNTIME_HANDSHAKE_H

#include <chrono>
#include <memory>
#include <string>

namespace executor_runtime {
class TlsStream;

inline constexpr const char kGreetingPrefix[] = "EXECUTOR-";
inline constexpr const char kGreetTls[] = "EXECUTOR-TLS";
inline constexpr const char kGreetToken[] = "EXECUTOR-TOKEN";
inline constexpr const char kGreetReady[] = "EXECUTOR-READY";
inline constexpr const char kGreetRefused[] = "EXECUTOR-REFUSED ";
inline constexpr const char kTokenLinePrefix[] = "EXECUTOR-TOKEN ";
/// What a server answers a wrong or missing token.
inline constexpr const char kWrongToken[] = "wrong or missing token";

/// Keepalive probes and TCP_USER_TIMEOUT, so that a peer that vanishes (a
/// cut link, a host that is gone) breaks the connection within about
/// `timeout` instead of never.
void setLivenessTimeout(int fd, std::chrono::seconds timeout);

struct ClientSecurity {
  /// Sent when the server asks for it.
  std::string token;
  /// The CA certificates (PEM) to trust; non-empty: TLS is required.
  std::string tlsCA;
  /// The host connected to, which the server's certificate must name.
  std::string host;
  std::chrono::milliseconds timeout{5000};
};

/// The client's side of what comes before ORC on the connected `fd`. On
/// success `tls` holds the TLS stream when the session runs over TLS (it
/// owns `fd` then). On failure `error` says why (the caller closes `fd`).
bool clientHandshake(int fd, const ClientSecurity &security,
                     std::unique_ptr<TlsStream> &tls, std::string &error);

} // namespace executor_runtime

#endif // EXECUTORRUNTIME_HANDSHAKE_H
