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
// OpenSSL makes the handshake (certificates, key exchange, TLS 1.3 only);
// the records after it are TlsStream's own, as the kernel's TLS does: the
// traffic secrets of the handshake give each direction its AEAD key and IV
// (RFC 8446, 7.1-7.3), and each record is sealed and opened with OpenSSL's
// AEAD cipher directly. A launch so costs what plaintext costs plus one seal
// and one open a message: no SSL_read/SSL_write machinery, no extra system
// calls, and the socket is blocking again after the handshake, as a plain
// one is. The records are TLS 1.3's on the wire (any TLS 1.3 peer reads
// them), key updates included; the reader and the writer have separate
// state, so ORC's sending threads and its reader never wait for each other.
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
  /// EAGAIN when nothing is). 0 at the end of the stream (the peer's
  /// close_notify, or its close between records: a cut between messages is
  /// the transport's to see), -1 on an error (errno EPROTO for a bad
  /// record, ECONNRESET for a cut inside one; lastError() says which), and
  /// every read after it fails too. May write to all of `data[0, size)`.
  ssize_t read(void *data, size_t size, bool dontWait = false);
  /// Whether bytes already read from the socket wait inside TLS (plaintext,
  /// or a whole record, which may carry no data): a reader must not wait
  /// for the socket then.
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
  /// allocation, no key derivation (for a session that is about to end, in
  /// a signal handler).
  void writeFromSignalHandler(const void *data, size_t size);
  /// Wakes every reader and writer: they see the end of the stream.
  void shutdown();
  std::string lastError() const;
  /// Changes the keys of AES-GCM streams after `records` records instead of
  /// 2^24 (RFC 8446, 5.5): for tests of key updates.
  static void setRecordsPerGcmKeyForTesting(uint64_t records);

private:
  struct Direction; // one direction's AEAD state (TlsStream.cpp)
  TlsStream(int fd, std::unique_ptr<Direction> receiving,
            std::unique_ptr<Direction> sending);
  static std::unique_ptr<TlsStream> finish(SSL *ssl, int fd, bool isServer,
                                           std::string &error);
  /// Opens the record at the front of the inbox into `into` (`room` bytes)
  /// when it fits, or in place: >0 bytes delivered to `into`, 0 when the
  /// record was opened in place or carried no data, -1 on an error, -2 at
  /// the peer's close_notify, -3 when the inbox holds no whole record.
  ssize_t openRecord(unsigned char *into, size_t room);
  /// Receives what the socket has into the inbox: >0, 0 at its end, -1.
  ssize_t fillInbox(bool dontWait);
  bool handleHandshakeMessages(const unsigned char *data, size_t size);
  /// Seals `size` bytes of `parts` (from its front, `used` tracks progress)
  /// as one record of `innerType` at `out`; returns the record's size.
  size_t sealRecord(unsigned char *out, unsigned char innerType,
                    const iovec *&parts, size_t &used, size_t size);
  /// Sends the outbox's sealed records; false on an error.
  bool flushOutbox();
  /// Seals a KeyUpdate into the outbox and switches the sending keys.
  bool queueKeyUpdate(bool requestPeerUpdate);
  bool sendLocked(const unsigned char *data, size_t size, int timeoutMs);
  bool waitReadable(int timeoutMs);
  void setError(const std::string &text);
  void updateReadable();

  int socket;
  std::unique_ptr<Direction> receiving, sending;
  // Reader side (one reader at a time): raw records [inBegin, inEnd), and
  // an opened record's plaintext [plainBegin, plainEnd) inside them.
  std::unique_ptr<unsigned char[]> inbox;
  size_t inBegin = 0, inEnd = 0, plainBegin = 0, plainEnd = 0;
  std::atomic<bool> readable{false}; // plaintext or a whole record is in
  std::atomic<bool> owesKeyUpdate{false}; // the peer asked for one
  bool peerClosed = false;                // its close_notify came
  bool readFailed = false;                // a record failed: no more reads
  unsigned recordsWithoutData = 0;        // in a row (a cap stops a flood)
  // Writer side (under sendMutex): records sealed, not yet sent.
  std::unique_ptr<unsigned char[]> outbox;
  size_t outSize = 0;
  bool writeFailed = false; // sequence numbers spent: no more writes
  std::mutex sendMutex; // one writer at a time
  std::atomic<bool> closed{false};
  mutable std::mutex errorMutex;
  std::string error;
};

} // namespace executor_runtime

#endif // EXECUTORRUNTIME_TLSSTREAM_H
