//===- Handshake.h - what comes before ORC on the executor wire -*- C++ -*-===//
//
// Before ORC's own handshake an executor-server may have something to say
// first, always as one '\n'-terminated line that starts "EXECUTOR-" (nine
// bytes no ORC message starts with: read as an ORC header they are a size of
// about 2^62):
//   EXECUTOR-REFUSED <why>        the session is refused (busy, throttled);
//   EXECUTOR-TLS                  TLS follows (the server has a
//                                 certificate); inside it the server says
//                                 EXECUTOR-CHALLENGE or EXECUTOR-READY;
//   EXECUTOR-CHALLENGE <Ns>       prove the token. The client answers
//                                 "EXECUTOR-PROOF <Nc> <HMAC(token, client
//                                 label, Ns, Nc)>"; the server answers with
//                                 EXECUTOR-REFUSED, or proves it knows the
//                                 token too: "EXECUTOR-PROOF <HMAC(token,
//                                 server label, Ns, Nc)>".
// Ns and Nc are 32 fresh random bytes each side (RAND_bytes), in hex; the
// proofs are HMAC-SHA256 (OpenSSL's EVP_MAC), compared in constant time.
// The token itself never travels, and what one connection carries is of
// no use on the next (its nonces are new). Inside TLS both proofs also
// cover the connection: keying material of its own TLS exporter (RFC 8446,
// 7.5; kProofExporterLabel), which differs at the two ends of a relay, so a
// man in the middle that ends the client's TLS and opens its own to the
// server cannot pass the client's proof on (issue 41). The client's line
// carries the connection's name too ("EXECUTOR-PROOF <Nc> <HMAC> <name>",
// the exporter under kChannelExporterLabel): a server that sees another
// name says that the proof was relayed, instead of "wrong token". Plain TCP
// and Unix sockets have no exporter: their proofs are as before. A client that has a token sends
// nothing but its proof to a server that has not proved the token back: a
// server that starts ORC at once, says EXECUTOR-READY, or asks for the token
// in clear (EXECUTOR-TOKEN, what servers before challenge-response said) is
// refused. A server without TLS or token starts ORC at once (what
// Catalyst's executor client expects).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_HANDSHAKE_H
#define EXECUTORRUNTIME_HANDSHAKE_H

#include <chrono>
#include <memory>
#include <string>

namespace executor_studio::runtime {
class TlsStream;

inline constexpr const char kGreetingPrefix[] = "EXECUTOR-";
inline constexpr const char kGreetTls[] = "EXECUTOR-TLS";
inline constexpr const char kGreetToken[] = "EXECUTOR-TOKEN";
inline constexpr const char kGreetReady[] = "EXECUTOR-READY";
inline constexpr const char kGreetRefused[] = "EXECUTOR-REFUSED ";
inline constexpr const char kGreetChallenge[] = "EXECUTOR-CHALLENGE ";
inline constexpr const char kProofLinePrefix[] = "EXECUTOR-PROOF ";
/// What each side's HMAC covers first: a proof of one side is never one of
/// the other's.
inline constexpr const char kClientProofLabel[] = "executor-studio token proof: client";
inline constexpr const char kServerProofLabel[] = "executor-studio token proof: server";
/// The TLS exporter's labels and context of the token's proof: what its
/// HMAC covers, and the connection's name on the client's proof line.
inline constexpr const char kProofExporterLabel[] = "EXECUTOR-TOKEN-PROOF";
inline constexpr const char kChannelExporterLabel[] = "EXECUTOR-TOKEN-CHANNEL";
inline constexpr const char kExporterContext[] = "executor-studio token proof";
/// Random bytes of each nonce (64 hex digits on the wire).
inline constexpr size_t kNonceBytes = 32;
/// What a server answers a wrong or missing token.
inline constexpr const char kWrongToken[] = "wrong or missing token";

/// Keepalive probes and TCP_USER_TIMEOUT, so that a peer that vanishes (a
/// cut link, a host that is gone) breaks the connection within about
/// `timeout` instead of never.
void setLivenessTimeout(int fd, std::chrono::seconds timeout);

/// A fresh nonce of kNonceBytes from OpenSSL's RAND_bytes, in hex; false
/// when the random generator fails.
bool makeNonce(std::string &hex);
/// Whether `text` is a nonce as makeNonce writes it.
bool isNonce(const std::string &text);
/// HMAC-SHA256 keyed with `token` over `label`, the server's nonce and the
/// client's, and the connection's `binding` (tlsChannel; "" outside TLS),
/// in hex ("" if OpenSSL fails).
std::string tokenProof(const std::string &token, const char *label,
                       const std::string &serverNonce,
                       const std::string &clientNonce,
                       const std::string &binding);
/// A TLS connection's `binding` (what tokenProof covers) and `name` (in
/// hex, on the client's proof line), from its exporter; false when OpenSSL
/// cannot export them.
bool tlsChannel(TlsStream &tls, std::string &binding, std::string &name);
/// Constant-time comparison (CRYPTO_memcmp) of two proofs.
bool proofsEqual(const std::string &given, const std::string &expected);
/// "" when `token` is fit to guard an executor, else why not: shorter
/// than 16 bytes, one repeated character, or fewer than 16 distinct bytes
/// in a token too short to make up for it (128 bits at its alphabet). A
/// token from `openssl rand -hex 32` always passes.
std::string tokenWeakness(const std::string &token);

/// Whether a session with a token may run in plaintext on the connected
/// `fd`: to a loopback address, or when EXECUTOR_INSECURE_PLAINTEXT=1 says
/// so (false with `why`). Elsewhere whoever is on the path would see the
/// kernels and their data, and could take the session over once the token
/// is proved.
bool plaintextAllowedTo(int fd, std::string &why);

/// Where this user's executor-servers keep what only this user may reach:
/// the tokens they generate and their default Unix sockets.
/// $XDG_RUNTIME_DIR/executor-studio, else /tmp/executor-studio-UID.
std::string privateRuntimeDirectory();
/// The file in which an executor-server listening on loopback port `port`
/// without --token-file keeps the token it generated (mode 0600, like
/// Jupyter's runtime files): a client of the same user that has no token
/// of its own proves that one.
std::string generatedTokenPath(unsigned port);
/// Makes privateRuntimeDirectory() (mode 0700) or checks that it is this
/// user's alone; "" or the problem.
std::string makePrivateRuntimeDirectory();

struct ClientSecurity {
  /// Proved (never sent) when the server asks for it; a server that does
  /// not ask is not sent anything.
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

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_HANDSHAKE_H
