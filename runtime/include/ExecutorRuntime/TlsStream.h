//===- TlsStream.h - one TLS connection on the executor wire ----*- C++ -*-===//
//
// TLS on the executor wire (OpenSSL, TLS 1.3 only). TlsStream is one TLS
// connection over a connected socket: the server side (accept, with the
// certificate and key of a TlsServerContext) or the client side (connect,
// trusting the CA certificates of one file and checking that the server's
// certificate names the host connected to: its DNS name, or its IP address
// as an IP subject alternative name). TcpTransport (Options::tls) carries
// ORC's messages and its direct calls over it, in the same framing as over
// a plain socket.
//
// OpenSSL's SSL objects must not be used from two threads at once, and ORC
// sends from any thread while one thread reads: every SSL call takes one
// lock, held only for the call (the socket is non-blocking), and a reader
// or writer that has to wait for the socket waits outside the lock, in one
// poll(). Records are read ahead (one recv takes what has arrived), and a
// message's small parts are gathered into one record.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_TLSSTREAM_H
#define EXECUTORRUNTIME_TLSSTREAM_H

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <sys/uio.h>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace executor_runtime {

/// The server's certificate chain and private key, loaded once.
class TlsServerContext {
public:
  /// Loads the PEM files; null with `error` naming the file and the problem.
  static std::unique_ptr<TlsServerContext> load(const std::string &certFile,
                                                const std::string &keyFile,
                                                std::string &error);
  ~TlsServerContext();
  SSL_CTX *get() const { return context; }

private:
  SSL_CTX *context = nullptr;
};

/// One TLS connection. Owns the socket.
class TlsStream {
public:
  using Clock = std::chrono::steady_clock;
  /// The server side of the handshake on `fd`, finished by `deadline`.
  static std::unique_ptr<TlsStream> accept(const TlsServerContext &context,
                                           int fd, Clock::time_point deadline,
                                           std::string &error);
  /// The client side: trusts the CA certificates in `caFile` and checks the
  /// server's certificate against `host` (a DNS name or an IP address).
  static std::unique_ptr<TlsStream> connect(const std::string &caFile,
                                            const std::string &host, int fd,
                                            Clock::time_point deadline,
                                            std::string &error);
  ~TlsStream();

  int fd() const { return socket; }
  /// Reads up to `size` bytes, waiting as long as it takes (until
  /// shutdown()), or with `dontWait` only what is there (-1 with errno
  /// EAGAIN when nothing is). 0 at the end of the stream, -1 on an error
  /// (lastError()).
  ssize_t read(void *data, size_t size, bool dontWait = false);
  /// Whether bytes already read from the socket wait inside TLS (a reader
  /// must not wait for the socket then).
  bool hasPending();
  /// Writes all of `data`, then all of `more` (nothing of another writer's
  /// in between); false on an error.
  bool writeAll(const void *data, size_t size, const void *more = nullptr,
                size_t moreSize = 0);
  /// Writes all of `parts` in order (nothing of another writer's in
  /// between); parts smaller than a TLS record are gathered into records
  /// (a small message is one record, one send). False on an error.
  bool writeParts(const iovec *parts, size_t count);
  /// Reads one '\n'-terminated line by `deadline` (without the '\n').
  bool readLine(std::string &line, Clock::time_point deadline,
                size_t maxLength = 4096);
  /// Writes `data` unless the stream is busy for more than about 2 s; no
  /// allocation (for a session that is about to end in a signal handler).
  void writeFromSignalHandler(const void *data, size_t size);
  /// Wakes every reader and writer: they see the end of the stream.
  void shutdown();
  std::string lastError() const;

private:
  TlsStream(SSL *ssl, int fd) : ssl(ssl), socket(fd) {}
  /// Waits until the socket is readable (`forWrite` false) or writable.
  bool wait(bool forWrite, int timeoutMs);
  bool writeLocked(const void *data, size_t size);

  SSL *ssl;
  int socket;
  std::mutex sslMutex;  // every SSL_* call
  std::mutex sendMutex; // one writer at a time
  std::atomic<bool> closed{false};
  mutable std::mutex errorMutex;
  std::string error;
};

} // namespace executor_runtime

#endif // EXECUTORRUNTIME_TLSSTREAM_H
