//===- Acceptor.h - one listener of executor-server, by its kind -*- C++ -*-===//
//
// The server's counterpart of the client's connectTransport (Connect.h): an
// Acceptor per --bind address, made once by listenOn for its kind, is all
// that knows what its connections are:
//   TcpAcceptor   HOST:PORT, [v6]:PORT: tuned sockets with a liveness
//                 time-out; sessions authenticate (TLS, the token) when the
//                 server has either; a session's stream is TLS (when it
//                 authenticated over TLS) or the plain socket;
//   UnixAcceptor  unix:PATH: the socket file's mode decides who connects
//                 (no TLS, no token); its stream passes descriptors, so
//                 large buffers cross in shared memory; the file goes when
//                 the server stops.
// The listener's loop and the session never ask which kind they have.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_ACCEPTOR_H
#define EXECUTORSERVER_ACCEPTOR_H

#include <chrono>
#include <memory>
#include <string>
#include <sys/socket.h>

namespace executor_studio::runtime {
class Stream;
class TlsStream;
struct ServerSecurity;

class Acceptor {
public:
  virtual ~Acceptor();
  /// The listening socket (non-blocking, for poll).
  int fd() const { return listenFd; }
  /// What `listening on` prints: HOST:PORT or unix:PATH.
  virtual std::string address() const = 0;
  /// The TCP port listened on, 0 for a Unix socket (a generated token's
  /// file is per port).
  virtual unsigned port() const { return 0; }
  /// Whether its sessions' streams pass descriptors (a Unix socket's).
  virtual bool passesDescriptors() const { return false; }
  /// Whether its connections authenticate before they get a session.
  virtual bool authenticates(const ServerSecurity &security) const = 0;
  /// Accepts one waiting connection, tuned for its kind; -1 when none
  /// waits. `peerName` names the peer in the log, `host` is what the
  /// failed-token throttle and the pending budget count by.
  virtual int accept(std::string &peerName, std::string &host) = 0;
  /// The stream a session runs on over the accepted `fd` (`tls`: it
  /// authenticated over TLS, and owns `fd`).
  virtual std::unique_ptr<Stream>
  stream(int fd, std::unique_ptr<TlsStream> tls) const = 0;
  /// Stops listening: new connections are refused at once, not left in
  /// the backlog (the destructor does it too).
  void stop();
  /// Removes what listening left behind (a Unix socket's file).
  virtual void remove() {}

protected:
  explicit Acceptor(int fd) : listenFd(fd) {}
  int listenFd;
};

/// Whether `address` (AF_INET or AF_INET6) is a loopback address.
bool isLoopbackAddress(const sockaddr_storage &address);

/// Binds and listens on `address` (a unix:PATH socket of `unixMode`; a TCP
/// address only on loopback unless `allowRemote`); connections on TCP get
/// `liveness` (keepalive, TCP_USER_TIMEOUT). Exits with a message on
/// failure, as a flag error does.
std::unique_ptr<Acceptor> listenOn(const std::string &address,
                                   bool allowRemote, unsigned unixMode,
                                   std::chrono::seconds liveness);

/// Raises this process's soft limit of open files to its hard limit (each
/// connection waiting to authenticate holds a descriptor, and thousands may
/// wait); returns the soft limit it has then.
unsigned long raiseOpenFileLimit();
/// In a session: the soft limit of open files it had before
/// raiseOpenFileLimit (a session holds a few descriptors, and kernels get
/// the limit they would anywhere).
void restoreOpenFileLimit();

/// Descriptors the listener keeps for itself beyond its pending
/// connections (listeners, pipes, logs, a session being forked).
constexpr unsigned long kListenerFiles = 128;

/// Fits the pending budgets (--max-pending, --max-pending-per-address) to
/// `files` open files: at most files - kListenerFiles pending, and no more
/// from one address than at all. Returns "" or what was lowered (for the
/// log).
std::string fitPendingBudgets(unsigned &maxPending, unsigned &perAddress,
                              unsigned long files);

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_ACCEPTOR_H
