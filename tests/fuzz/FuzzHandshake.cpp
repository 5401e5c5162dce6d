//===- FuzzHandshake.cpp - the lines before ORC, both ends ----------------===//
//
// What comes before ORC's handshake (ExecutorRuntime/Handshake.h): the input
// is what the peer sends. executor-server's side (PendingConnection, with a
// token) reads it as the client's proof line; the client's side
// (clientHandshake, with a token) reads it as the server's greeting and its
// answer to the proof.
//
//===----------------------------------------------------------------------===//
#include "Auth.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/TlsStream.h"

#include <sys/socket.h>
#include <unistd.h>

using namespace executor_studio::runtime;

namespace {
/// A socket pair whose peer end has sent `data` and closed its writing.
bool peerSent(const uint8_t *data, size_t size, int sv[2]) {
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return false;
  if (size)
    (void)::send(sv[1], data, size, MSG_NOSIGNAL);
  ::shutdown(sv[1], SHUT_WR);
  return true;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string token = "fuzz-token-0123456789";
  int sv[2];
  if (peerSent(data, size, sv)) {
    ServerSecurity security;
    security.token = token;
    {
      PendingConnection pending(sv[0], security,
                                std::chrono::steady_clock::now() +
                                    std::chrono::milliseconds(20));
      if (pending.start() == PendingConnection::State::Waiting)
        (void)pending.advance();
    } // closes sv[0]
    ::close(sv[1]);
  }
  if (peerSent(data, size, sv)) {
    ClientSecurity security;
    security.token = token;
    security.host = "127.0.0.1";
    security.timeout = std::chrono::milliseconds(20);
    std::unique_ptr<TlsStream> tls;
    std::string error;
    (void)clientHandshake(sv[0], security, tls, error);
    if (!tls)
      ::close(sv[0]);
    ::close(sv[1]);
  }
  return 0;
}
