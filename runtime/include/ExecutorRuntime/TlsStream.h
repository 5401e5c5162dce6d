//===- TlsStream.h - one TLS connection on the executor wire ----*- C++ -*-===//
//
// TLS on the executor wire (OpenSSL, TLS 1.3 only). TlsStream is one TLS
// connection over a connected socket: the server side (accept, with the
// certificate and key of a TlsServerContext) or the client side (connect,
// trusting the CA certificates of one file and checking that the server's
// certificate names the host connected to: its DNS name, or its IP address
// as an IP subject alternative name). StreamTransport (Options::tls) carries
// ORC's messages and its direct calls over it, in the same framing as over
// a plain socket.
//
// Everything TLS is OpenSSL's: the handshake and the records after it
// (SSL_read_ex/SSL_write_ex on one SSL object; key updates, alerts and
// limits are OpenSSL's). Kernel TLS is asked for (SSL_OP_ENABLE_KTLS): on a
// kernel with the `tls` module the records are sealed and opened by the
// kernel, and kernelTls() says so. Without it, OpenSSL reads ahead (one
// recv takes many records) and a message is written in as few records as
// OpenSSL allows (its parts are gathered into records of 16 KiB, the last
// one shorter: a small message is one record, one send).
//
// The socket is non-blocking under OpenSSL: a reader and a writer (ORC's
// reader thread and its senders) take turns on the SSL object, never
// waiting for the socket while they hold it, so neither waits for the
// other. Writes go out with MSG_NOSIGNAL (a BIO of our own in front of
// OpenSSL's socket BIO), so a closed peer is an error, never SIGPIPE.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_TLSSTREAM_H
#define EXECUTORRUNTIME_TLSSTREAM_H

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <sys/uio.h>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace executor_studio::runtime {

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
  /// The server side one step at a time, for a listener that must never
  /// wait for one client: starts TLS on `fd` (null with `error` when it
  /// cannot); continueAccept() advances the handshake.
  static std::unique_ptr<TlsStream> beginAccept(const TlsServerContext &context,
                                                int fd, std::string &error);
  /// 1: the handshake is done; 0: it waits for `events` (POLLIN or POLLOUT)
  /// on fd(); -1: it failed (`error` says why).
  int continueAccept(short &events, std::string &error);
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
  /// EAGAIN when nothing is). 0 at the end of the stream (the peer's
  /// close_notify, or its close between records: a cut between messages is
  /// the transport's to see), -1 on an error (errno EPROTO for a record
  /// OpenSSL refused, ECONNRESET for a cut inside one; lastError() says
  /// which), and every read after it fails too.
  ssize_t read(void *data, size_t size, bool dontWait = false);
  /// Whether a read returns at once without the socket: OpenSSL holds
  /// plaintext or a whole record (it may have read ahead), or the stream
  /// has ended. A reader must not wait for the socket then.
  bool hasPending();
  /// Writes all of `data`, then all of `more` (nothing of another writer's
  /// in between); false on an error.
  bool writeAll(const void *data, size_t size, const void *more = nullptr,
                size_t moreSize = 0);
  /// Writes all of `parts` in order (nothing of another writer's in
  /// between), gathered into records of 16 KiB (the last one shorter).
  /// False on an error.
  bool writeParts(const iovec *parts, size_t count);
  /// Reads one '\n'-terminated line by `deadline` (without the '\n').
  bool readLine(std::string &line, Clock::time_point deadline,
                size_t maxLength = 4096);
  /// Writes `data` unless the stream is busy for more than about 2 s or the
  /// socket takes no bytes for about 1 s (for a session that is about to
  /// end: the lock stays taken). Never from a signal handler: OpenSSL and
  /// the locks are not async-signal-safe (a crash report goes through a
  /// thread of its own, CrashReport.cpp).
  void writeBeforeExit(const void *data, size_t size);
  /// Wakes every reader and writer: they see the end of the stream.
  void shutdown();
  std::string lastError() const;
  /// Which directions kernel TLS carries: "send and receive", "send",
  /// "receive" or "none".
  std::string kernelTls() const;
  /// The negotiated cipher suite's standard name.
  std::string cipherName() const;
  /// `size` bytes of keying material that only the two ends of this one
  /// connection know (the TLS exporter of RFC 8446, section 7.5:
  /// SSL_export_keying_material) under `label` and `context`; "" when
  /// OpenSSL cannot export them.
  std::string exportKeyingMaterial(const char *label, const char *context,
                                   size_t size);

private:
  TlsStream(SSL *ssl, int fd);
  /// Runs an SSL_read_ex/SSL_write_ex `step` under the SSL object's lock
  /// until it is done (1) or fails (-SSL_get_error); waits for the socket
  /// (up to `timeoutMs`, -1: until shutdown) without the lock. 0 with errno
  /// EAGAIN (`dontWait`, nothing to read), ETIMEDOUT or EPIPE (shut down).
  template <typename StepFn>
  int runStep(StepFn step, bool dontWait, int timeoutMs,
              bool beforeExit);
  /// SSL_write_ex of all of `data`: whole, in records of 16 KiB.
  bool writeRecords(const void *data, size_t size, int timeoutMs,
                    bool beforeExit);
  /// Writes `parts` in records of 16 KiB (under sendMutex).
  bool gatherAndWrite(const iovec *parts, size_t count, int timeoutMs,
                      bool beforeExit);
  void setError(const std::string &text);

  SSL *ssl;
  int socket;
  std::mutex sslMutex;  // every call into `ssl`
  std::mutex sendMutex; // one writer's message at a time
  std::unique_ptr<char[]> staging; // under sendMutex: a record's gathered parts
  std::atomic<bool> mayHold{false}; // OpenSSL may hold an unread record
  bool peerClosed = false;          // reader: its close_notify came
  bool readFailed = false;          // reader: no more reads
  bool writeFailed = false;         // writer: no more writes
  std::atomic<bool> closed{false};
  mutable std::mutex errorMutex;
  std::string error;
};

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_TLSSTREAM_H
