//===- TlsTransport.h - SimpleRemoteEPC messages over TLS -------*- C++ -*-===//
//
// TLS on the executor wire (OpenSSL, TLS 1.3 only). TlsStream is one TLS
// connection over a connected socket: the server side (accept, with the
// certificate and key of a TlsServerContext) or the client side (connect,
// trusting the CA certificates of one file and checking that the server's
// certificate names the host connected to: its DNS name, or its IP address
// as an IP subject alternative name). TlsTransport carries ORC's messages
// over a TlsStream in the same framing as TcpTransport.
//
// OpenSSL's SSL objects must not be used from two threads at once, and ORC
// sends from any thread while one thread reads: every SSL call takes one
// lock, the socket is non-blocking, and a reader or writer that has to wait
// for the socket waits outside the lock.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_TLSTRANSPORT_H
#define EXECUTORRUNTIME_TLSTRANSPORT_H

#include "llvm/ExecutionEngine/Orc/Shared/SimpleRemoteEPCUtils.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

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
  /// shutdown()). 0 at the end of the stream, -1 on an error (lastError()).
  ssize_t read(void *data, size_t size);
  /// Writes all of `data`, then all of `more` (nothing of another writer's
  /// in between); false on an error.
  bool writeAll(const void *data, size_t size, const void *more = nullptr,
                size_t moreSize = 0);
  /// Reads one '\n'-terminated line by `deadline` (without the '\n').
  bool readLine(std::string &line, Clock::time_point deadline,
                size_t maxLength = 4096);
  /// Writes `data` unless the stream is busy for more than about 200 ms; no
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

/// ORC's messages over a TlsStream; see TcpTransport for the framing.
class TlsTransport final : public llvm::orc::SimpleRemoteEPCTransport {
public:
  static llvm::Expected<std::unique_ptr<TlsTransport>>
  Create(llvm::orc::SimpleRemoteEPCTransportClient &client,
         std::unique_ptr<TlsStream> stream, TlsTransport **created = nullptr);
  ~TlsTransport() override;

  /// The message of an error Hangup the peer sent, or "".
  std::string hangupMessage() const;
  /// As TcpTransport::sendHangupFromSignalHandler.
  void sendHangupFromSignalHandler(const char *message, size_t size);

  llvm::Error start() override;
  llvm::Error sendMessage(llvm::orc::SimpleRemoteEPCOpcode opcode,
                          uint64_t seqNo, llvm::orc::ExecutorAddr tagAddr,
                          llvm::ArrayRef<char> argBytes) override;
  void disconnect() override;

private:
  TlsTransport(llvm::orc::SimpleRemoteEPCTransportClient &client,
               std::unique_ptr<TlsStream> stream)
      : client(client), stream(std::move(stream)) {}
  void listen();

  llvm::orc::SimpleRemoteEPCTransportClient &client;
  std::unique_ptr<TlsStream> stream;
  std::thread listener;
  std::atomic<bool> disconnected{false};
  mutable std::mutex hangupMutex;
  std::string hangup;
};

} // namespace executor_runtime

#endif // EXECUTORRUNTIME_TLSTRANSPORT_H
