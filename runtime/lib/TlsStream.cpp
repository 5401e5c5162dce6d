//===- TlsStream.cpp - TLS 1.3 on the executor wire -----------------------===//
//
// OpenSSL's TLS, handshake and records (SSL_read_ex/SSL_write_ex), over a
// non-blocking socket that a reader and a writer share. TlsStream.h says
// how.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/TlsStream.h"
#include "ExecutorRuntime/Socket.h"

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>
#include <algorithm>
#include <string>

namespace executor_studio::runtime {

namespace {
/// The most plaintext one TLS record carries.
constexpr size_t kRecordSize = 16 * 1024;
/// What OpenSSL reads from the socket at once (many records of a message).
constexpr size_t kReadAhead = 64 * 1024;

/// OpenSSL's error queue of this thread as text (emptied), or `fallback`.
std::string sslErrors(const std::string &fallback) {
  std::string text;
  while (unsigned long code = ERR_get_error()) {
    char buffer[256];
    ERR_error_string_n(code, buffer, sizeof(buffer));
    const char *reason = ERR_reason_error_string(code);
    if (!text.empty())
      text += "; ";
    text += reason ? reason : buffer;
  }
  return text.empty() ? fallback : text;
}

/// Waits up to `timeoutMs` (-1: for ever) for `events` on `fd`; false when
/// the time passed first.
bool waitFor(int fd, short events, int timeoutMs) {
  return pollFor(fd, events, timeoutMs) != 0;
}

//===----------------------------------------------------------------------===//
// The write side's BIO: MSG_NOSIGNAL in front of OpenSSL's socket BIO
//===----------------------------------------------------------------------===//
//
// OpenSSL's socket BIO writes with write(2), which raises SIGPIPE on a
// closed connection; ignoring SIGPIPE would change every program that links
// the runtime. This BIO writes with send(MSG_NOSIGNAL) instead and passes
// every control to the socket BIO it wraps (kernel TLS is set up and
// queried there). Once kernel TLS sends, writes go through the socket BIO
// (records of other types need its control messages), with SIGPIPE blocked
// in this thread meanwhile.

/// Blocks SIGPIPE in this thread while alive; a SIGPIPE raised meanwhile
/// is taken off (the write's EPIPE says the same).
class SigPipeBlock {
public:
  SigPipeBlock() {
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    wasPending = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe, &saved);
  }
  ~SigPipeBlock() {
    if (!wasPending) {
      sigset_t pipe;
      sigemptyset(&pipe);
      sigaddset(&pipe, SIGPIPE);
      timespec zero{0, 0};
      int saved = errno;
      while (sigtimedwait(&pipe, nullptr, &zero) == SIGPIPE) {
      }
      errno = saved;
    }
    pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  }

private:
  sigset_t saved;
  bool wasPending = false;
};

int noSignalWrite(BIO *bio, const char *data, int size) {
  BIO *socketBio = static_cast<BIO *>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  if (BIO_get_ktls_send(socketBio)) {
    SigPipeBlock block;
    int n = BIO_write(socketBio, data, size);
    if (n <= 0 && BIO_should_retry(socketBio))
      BIO_set_retry_write(bio);
    return n;
  }
  int fd = static_cast<int>(BIO_get_fd(socketBio, nullptr));
  ssize_t n;
  do
    n = ::send(fd, data, static_cast<size_t>(size), MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    BIO_set_retry_write(bio);
  return static_cast<int>(n);
}

long noSignalCtrl(BIO *bio, int command, long number, void *pointer) {
  return BIO_ctrl(static_cast<BIO *>(BIO_get_data(bio)), command, number,
                  pointer);
}

int noSignalCreate(BIO *bio) {
  BIO_set_init(bio, 1);
  return 1;
}

int noSignalDestroy(BIO *bio) {
  BIO_free(static_cast<BIO *>(BIO_get_data(bio)));
  BIO_set_data(bio, nullptr);
  return 1;
}

const BIO_METHOD *noSignalMethod() {
  static BIO_METHOD *method = [] {
    BIO_METHOD *m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK,
                                 "executor socket (MSG_NOSIGNAL)");
    BIO_meth_set_write(m, noSignalWrite);
    BIO_meth_set_ctrl(m, noSignalCtrl);
    BIO_meth_set_create(m, noSignalCreate);
    BIO_meth_set_destroy(m, noSignalDestroy);
    return m;
  }();
  return method;
}

/// Puts `ssl` on the non-blocking socket `fd`: OpenSSL's socket BIO reads,
/// the MSG_NOSIGNAL BIO writes. False when OpenSSL cannot make the BIOs.
bool attach(SSL *ssl, int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  BIO *socketBio = BIO_new_socket(fd, BIO_NOCLOSE);
  BIO *writeBio = socketBio ? BIO_new(noSignalMethod()) : nullptr;
  if (!writeBio) {
    BIO_free(socketBio);
    return false;
  }
  BIO_up_ref(socketBio); // one for each BIO that holds it
  BIO_set_data(writeBio, socketBio);
  SSL_set_bio(ssl, socketBio, writeBio);
  return true;
}

/// What both sides ask of OpenSSL: TLS 1.3, kernel TLS where the kernel
/// has it, reading ahead (many records a recv), whole writes.
void configure(SSL_CTX *ctx) {
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  SSL_CTX_set_options(ctx, SSL_OP_ENABLE_KTLS);
  SSL_CTX_set_read_ahead(ctx, 1);
  SSL_CTX_set_default_read_buffer_len(ctx, kReadAhead);
  SSL_CTX_clear_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE);
}

/// Runs `step` (SSL_accept or SSL_connect) on the non-blocking `fd` until it
/// is done, fails, or `deadline` passes.
template <typename StepFn>
bool handshake(SSL *ssl, int fd, TlsStream::Clock::time_point deadline,
               StepFn step, std::string &error) {
  while (true) {
    ERR_clear_error();
    int rc = step(ssl);
    if (rc == 1)
      return true;
    int why = SSL_get_error(ssl, rc);
    short events = why == SSL_ERROR_WANT_READ    ? POLLIN
                   : why == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                 : 0;
    if (!events) {
      if (why == SSL_ERROR_SYSCALL || why == SSL_ERROR_ZERO_RETURN)
        error = sslErrors("the peer closed the connection during the TLS "
                          "handshake");
      else
        error = sslErrors("TLS handshake failed");
      long verify = SSL_get_verify_result(ssl);
      if (verify != X509_V_OK)
        error += " (certificate: " +
                 std::string(X509_verify_cert_error_string(verify)) + ")";
      return false;
    }
    if (!waitFor(fd, events, millisecondsUntil(deadline))) {
      error = "the TLS handshake did not finish in time";
      return false;
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// TlsServerContext
//===----------------------------------------------------------------------===//

std::unique_ptr<TlsServerContext>
TlsServerContext::load(const std::string &certFile, const std::string &keyFile,
                       std::string &error) {
  auto context = std::unique_ptr<TlsServerContext>(new TlsServerContext);
  context->context = SSL_CTX_new(TLS_server_method());
  SSL_CTX *ctx = context->context;
  if (!ctx) {
    error = sslErrors("cannot create a TLS context");
    return nullptr;
  }
  configure(ctx);
  // Sessions are one connection each: no tickets to resume them.
  SSL_CTX_set_num_tickets(ctx, 0);
  if (SSL_CTX_use_certificate_chain_file(ctx, certFile.c_str()) != 1) {
    error = "cannot use the certificate " + certFile + ": " +
            sslErrors("not a PEM certificate");
    return nullptr;
  }
  if (SSL_CTX_use_PrivateKey_file(ctx, keyFile.c_str(), SSL_FILETYPE_PEM) != 1) {
    error = "cannot use the private key " + keyFile + ": " +
            sslErrors("not a PEM private key");
    return nullptr;
  }
  if (SSL_CTX_check_private_key(ctx) != 1) {
    error = "the private key " + keyFile + " does not belong to the "
            "certificate " + certFile;
    return nullptr;
  }
  return context;
}

TlsServerContext::~TlsServerContext() { SSL_CTX_free(context); }

//===----------------------------------------------------------------------===//
// TlsStream
//===----------------------------------------------------------------------===//

TlsStream::TlsStream(SSL *ssl, int fd)
    : ssl(ssl), socket(fd), staging(new char[kRecordSize]) {}

std::unique_ptr<TlsStream>
TlsStream::accept(const TlsServerContext &context, int fd,
                  Clock::time_point deadline, std::string &error) {
  SSL *ssl = SSL_new(context.get());
  if (!ssl || !attach(ssl, fd)) {
    error = sslErrors("cannot start TLS");
    SSL_free(ssl);
    return nullptr;
  }
  if (!handshake(ssl, fd, deadline, SSL_accept, error)) {
    SSL_free(ssl); // the socket stays open: the caller has it
    return nullptr;
  }
  return std::unique_ptr<TlsStream>(new TlsStream(ssl, fd));
}

std::unique_ptr<TlsStream>
TlsStream::beginAccept(const TlsServerContext &context, int fd,
                       std::string &error) {
  SSL *ssl = SSL_new(context.get());
  if (!ssl || !attach(ssl, fd)) {
    error = sslErrors("cannot start TLS");
    SSL_free(ssl);
    return nullptr;
  }
  // The handshake reads with the smallest buffer (a record's): a server
  // holds thousands of connections that may never finish it (issue 40).
  // continueAccept gives the session its read-ahead.
  SSL_set_default_read_buffer_len(ssl, 0);
  return std::unique_ptr<TlsStream>(new TlsStream(ssl, fd));
}

int TlsStream::continueAccept(short &events, std::string &error) {
  std::lock_guard<std::mutex> lock(sslMutex);
  ERR_clear_error();
  int rc = SSL_accept(ssl);
  if (rc == 1) {
    // The session's read-ahead from its next read (when nothing waits in
    // the handshake's buffer; otherwise that buffer stays).
    SSL_set_default_read_buffer_len(ssl, kReadAhead);
    SSL_free_buffers(ssl);
    return 1;
  }
  int why = SSL_get_error(ssl, rc);
  events = why == SSL_ERROR_WANT_READ    ? POLLIN
           : why == SSL_ERROR_WANT_WRITE ? POLLOUT
                                         : 0;
  if (events)
    return 0;
  if (why == SSL_ERROR_SYSCALL || why == SSL_ERROR_ZERO_RETURN)
    error = sslErrors("the peer closed the connection during the TLS "
                      "handshake");
  else
    error = sslErrors("TLS handshake failed");
  return -1;
}

std::unique_ptr<TlsStream>
TlsStream::connect(const std::string &caFile, const std::string &host, int fd,
                   Clock::time_point deadline, std::string &error) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  if (!ctx) {
    error = sslErrors("cannot create a TLS context");
    return nullptr;
  }
  configure(ctx);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  if (SSL_CTX_load_verify_locations(ctx, caFile.c_str(), nullptr) != 1) {
    error = "cannot read the CA certificates in " + caFile +
            " (EXECUTOR_TLS_CA): " + sslErrors("not a PEM certificate");
    SSL_CTX_free(ctx);
    return nullptr;
  }
  SSL *ssl = SSL_new(ctx);
  SSL_CTX_free(ctx); // the SSL keeps a reference
  if (!ssl) {
    error = sslErrors("cannot start TLS");
    return nullptr;
  }
  // The certificate must name what was connected to (an empty name would
  // turn the check off).
  X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
  unsigned char ip[16];
  bool isIp = inet_pton(AF_INET, host.c_str(), ip) == 1 ||
              inet_pton(AF_INET6, host.c_str(), ip) == 1;
  bool named = !host.empty() &&
               (isIp ? X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) == 1
                     : X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0) == 1 &&
                           SSL_set_tlsext_host_name(ssl, host.c_str()) == 1);
  if (!named) {
    error = "cannot check the server's certificate against the name '" +
            host + "'";
    SSL_free(ssl);
    return nullptr;
  }
  if (!attach(ssl, fd)) {
    error = sslErrors("cannot start TLS");
    SSL_free(ssl);
    return nullptr;
  }
  if (!handshake(ssl, fd, deadline, SSL_connect, error)) {
    SSL_free(ssl);
    return nullptr;
  }
  return std::unique_ptr<TlsStream>(new TlsStream(ssl, fd));
}

TlsStream::~TlsStream() {
  SSL_free(ssl); // OpenSSL cleanses its keys and buffers
  ::close(socket);
}

std::string TlsStream::lastError() const {
  std::lock_guard<std::mutex> lock(errorMutex);
  return error;
}

void TlsStream::setError(const std::string &text) {
  std::lock_guard<std::mutex> lock(errorMutex);
  error = text;
}

void TlsStream::shutdown() {
  if (closed.exchange(true))
    return;
  ::shutdown(socket, SHUT_RDWR);
}

std::string TlsStream::kernelTls() const {
  bool send = BIO_get_ktls_send(SSL_get_wbio(ssl));
  bool receive = BIO_get_ktls_recv(SSL_get_rbio(ssl));
  return send && receive ? "send and receive"
         : send          ? "send"
         : receive       ? "receive"
                         : "none";
}

std::string TlsStream::cipherName() const {
  const SSL_CIPHER *cipher = SSL_get_current_cipher(ssl);
  return cipher ? SSL_CIPHER_standard_name(cipher) : "";
}

std::string TlsStream::exportKeyingMaterial(const char *label,
                                            const char *context, size_t size) {
  std::string material(size, '\0');
  std::lock_guard<std::mutex> lock(sslMutex);
  if (SSL_export_keying_material(
          ssl, reinterpret_cast<unsigned char *>(material.data()), size, label,
          std::strlen(label),
          reinterpret_cast<const unsigned char *>(context),
          std::strlen(context), /*use_context=*/1) != 1) {
    ERR_clear_error();
    return "";
  }
  return material;
}

bool TlsStream::hasPending() {
  if (!mayHold.load(std::memory_order_acquire))
    return false;
  // OpenSSL may hold plaintext, a whole record, or only part of one: a
  // peek without waiting tells (a reader told yes must get bytes at once).
  std::lock_guard<std::mutex> lock(sslMutex);
  if (SSL_pending(ssl) > 0)
    return true;
  char byte;
  size_t n = 0;
  ERR_clear_error();
  int rc = SSL_peek_ex(ssl, &byte, 1, &n);
  if (rc == 1)
    return true;
  if (SSL_get_error(ssl, rc) == SSL_ERROR_WANT_READ) {
    mayHold.store(false, std::memory_order_release);
    return false;
  }
  ERR_clear_error();
  return true; // the end or an error: the next read reports it at once
}

template <typename StepFn>
int TlsStream::runStep(StepFn step, bool dontWait, int timeoutMs,
                       bool beforeExit) {
  while (true) {
    if (closed) {
      errno = EPIPE;
      return 0;
    }
    int rc, why;
    if (beforeExit) {
      if (!tryLockFor(sslMutex, 2000)) {
        errno = ETIMEDOUT;
        return 0;
      }
    } else {
      sslMutex.lock();
    }
    ERR_clear_error();
    rc = step();
    why = rc > 0 ? SSL_ERROR_NONE : SSL_get_error(ssl, rc);
    if (why == SSL_ERROR_WANT_READ)
      mayHold.store(false, std::memory_order_release);
    sslMutex.unlock();
    if (why == SSL_ERROR_NONE)
      return 1;
    short events = why == SSL_ERROR_WANT_READ    ? POLLIN
                   : why == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                 : 0;
    if (!events)
      return -why;
    if (events == POLLIN && dontWait) {
      errno = EAGAIN;
      return 0;
    }
    if (!waitFor(socket, events, timeoutMs)) {
      errno = ETIMEDOUT;
      return 0;
    }
  }
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

ssize_t TlsStream::read(void *data, size_t size, bool dontWait) {
  // A broken stream stays broken, and every failure says so in errno:
  // callers tell it from EAGAIN.
  auto fail = [&](int code) -> ssize_t {
    readFailed = true;
    errno = code;
    return -1;
  };
  if (readFailed)
    return closed ? 0 : fail(EPROTO);
  if (peerClosed || size == 0)
    return 0;
  size_t got = 0;
  int rc = runStep(
      [&] {
        int n = SSL_read_ex(ssl, data, size, &got);
        // More may wait in OpenSSL's read-ahead (nothing does, mostly: a
        // message's records come in one recv).
        if (n > 0)
          mayHold.store(SSL_has_pending(ssl) == 1, std::memory_order_release);
        return n;
      },
      dontWait, /*timeoutMs=*/-1, /*beforeExit=*/false);
  if (rc == 1)
    return static_cast<ssize_t>(got);
  if (rc == 0) {
    if (errno == EAGAIN)
      return -1;
    return 0; // shut down
  }
  if (closed)
    return 0;
  int why = -rc;
  if (why == SSL_ERROR_ZERO_RETURN) { // the peer's close_notify
    peerClosed = true;
    return 0;
  }
  int savedErrno = errno;
  unsigned long code = ERR_peek_error();
  if (ERR_GET_LIB(code) == ERR_LIB_SSL &&
      ERR_GET_REASON(code) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
    // A peer that closes without close_notify between records has simply
    // gone (ORC's framing catches a cut inside a message); inside a record
    // it is an error.
    ERR_clear_error();
    if (!SSL_has_pending(ssl)) {
      peerClosed = true;
      return 0;
    }
    setError("the connection closed inside a TLS record");
    return fail(ECONNRESET);
  }
  if (why == SSL_ERROR_SYSCALL) {
    setError(sslErrors(savedErrno ? std::strerror(savedErrno)
                                  : "the connection closed"));
    return fail(savedErrno ? savedErrno : ECONNRESET);
  }
  setError(sslErrors("TLS failed"));
  return fail(EPROTO);
}

bool TlsStream::readLine(std::string &line, Clock::time_point deadline,
                         size_t maxLength) {
  // One byte at a time: what follows the line stays for the next reader.
  line.clear();
  while (line.size() < maxLength) {
    char c;
    ssize_t got = read(&c, 1, /*dontWait=*/true);
    if (got == 1) {
      if (c == '\n')
        return true;
      line.push_back(c);
      continue;
    }
    if (got == 0 || errno != EAGAIN)
      return false;
    int left = millisecondsUntil(deadline);
    if (left <= 0 || !waitFor(socket, POLLIN, left))
      return false;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

bool TlsStream::writeRecords(const void *data, size_t size, int timeoutMs,
                             bool beforeExit) {
  if (writeFailed)
    return false;
  size_t written = 0;
  int rc = runStep([&] { return SSL_write_ex(ssl, data, size, &written); },
                   /*dontWait=*/false, timeoutMs, beforeExit);
  if (rc == 1)
    return true;
  // After a failed write OpenSSL's record state cannot go on.
  writeFailed = true;
  if (beforeExit) // sslErrors allocates (the crashed thread may hold malloc)
    return false;
  if (rc == 0)
    setError(closed ? "the connection closed"
                    : std::string("no progress writing: ") +
                          std::strerror(errno));
  else
    setError(sslErrors(errno ? std::strerror(errno) : "the connection closed"));
  return false;
}

bool TlsStream::writeAll(const void *data, size_t size, const void *more,
                         size_t moreSize) {
  iovec parts[2] = {{const_cast<void *>(data), size},
                    {const_cast<void *>(more), moreSize}};
  return writeParts(parts, moreSize ? 2 : 1);
}

bool TlsStream::writeParts(const iovec *parts, size_t count) {
  std::lock_guard<std::mutex> lock(sendMutex);
  return gatherAndWrite(parts, count, /*timeoutMs=*/-1,
                        /*beforeExit=*/false);
}

bool TlsStream::gatherAndWrite(const iovec *parts, size_t count, int timeoutMs,
                               bool beforeExit) {
  // Small parts are gathered into the staging record; a part's run of whole
  // records goes from where it lies when nothing is staged.
  size_t staged = 0;
  for (size_t i = 0; i < count; ++i) {
    const char *at = static_cast<const char *>(parts[i].iov_base);
    size_t left = parts[i].iov_len;
    while (left > 0) {
      if (staged == 0 && left >= kRecordSize) {
        size_t whole = left - left % kRecordSize;
        if (!writeRecords(at, whole, timeoutMs, beforeExit))
          return false;
        at += whole;
        left -= whole;
        continue;
      }
      size_t take = std::min(left, kRecordSize - staged);
      std::memcpy(staging.get() + staged, at, take);
      staged += take;
      at += take;
      left -= take;
      if (staged == kRecordSize) {
        if (!writeRecords(staging.get(), staged, timeoutMs, beforeExit))
          return false;
        staged = 0;
      }
    }
  }
  return staged == 0 ||
         writeRecords(staging.get(), staged, timeoutMs, beforeExit);
}

void TlsStream::writeBeforeExit(const void *data, size_t size) {
  // The lock stays taken: the process is about to end.
  if (!tryLockFor(sendMutex, 2000)) // a loaded machine can need it
    return;
  iovec part{const_cast<void *>(data), size};
  gatherAndWrite(&part, 1, /*timeoutMs=*/1000, /*beforeExit=*/true);
}

} // namespace executor_studio::runtime
