//===- TlsTransport.cpp - SimpleRemoteEPC messages over TLS ---------------===//
#include "ExecutorRuntime/TlsStream.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>
#include <vector>

namespace executor_runtime {

namespace {
/// The most plaintext one TLS record carries.
constexpr size_t kRecordSize = 16 * 1024;

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

int millisecondsUntil(TlsStream::Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - TlsStream::Clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
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
    pollfd p{fd, events, 0};
    int ready = poll(&p, 1, millisecondsUntil(deadline));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0) {
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
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  // ORC's framing catches a cut inside a message; a peer that closes
  // without close_notify between messages has simply gone.
  SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
                            SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  // One recv takes whatever has arrived (not a record's header, then its
  // body: two system calls a message).
  SSL_CTX_set_read_ahead(ctx, 1);
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

std::unique_ptr<TlsStream>
TlsStream::accept(const TlsServerContext &context, int fd,
                  Clock::time_point deadline, std::string &error) {
  SSL *ssl = SSL_new(context.get());
  if (!ssl) {
    error = sslErrors("cannot start TLS");
    return nullptr;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  SSL_set_fd(ssl, fd);
  if (!handshake(ssl, fd, deadline, SSL_accept, error)) {
    SSL_free(ssl);
    return nullptr;
  }
  return std::unique_ptr<TlsStream>(new TlsStream(ssl, fd));
}

std::unique_ptr<TlsStream>
TlsStream::connect(const std::string &caFile, const std::string &host, int fd,
                   Clock::time_point deadline, std::string &error) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  if (!ctx) {
    error = sslErrors("cannot create a TLS context");
    return nullptr;
  }
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  // ORC's framing catches a cut inside a message; a peer that closes
  // without close_notify between messages has simply gone.
  SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
                            SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  // One recv takes whatever has arrived (not a record's header, then its
  // body: two system calls a message).
  SSL_CTX_set_read_ahead(ctx, 1);
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
  // The certificate must name what was connected to.
  X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
  unsigned char ip[16];
  bool isIp = inet_pton(AF_INET, host.c_str(), ip) == 1 ||
              inet_pton(AF_INET6, host.c_str(), ip) == 1;
  if (isIp) {
    X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
  } else {
    X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
    SSL_set_tlsext_host_name(ssl, host.c_str());
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  SSL_set_fd(ssl, fd);
  if (!handshake(ssl, fd, deadline, SSL_connect, error)) {
    SSL_free(ssl);
    return nullptr;
  }
  return std::unique_ptr<TlsStream>(new TlsStream(ssl, fd));
}

TlsStream::~TlsStream() {
  SSL_free(ssl);
  ::close(socket);
}

std::string TlsStream::lastError() const {
  std::lock_guard<std::mutex> lock(errorMutex);
  return error;
}

void TlsStream::shutdown() {
  if (closed.exchange(true))
    return;
  ::shutdown(socket, SHUT_RDWR);
}

bool TlsStream::wait(bool forWrite, int timeoutMs) {
  pollfd p{socket, static_cast<short>(forWrite ? POLLOUT : POLLIN), 0};
  while (true) {
    int rc = poll(&p, 1, timeoutMs);
    if (rc < 0 && errno == EINTR)
      continue;
    return rc > 0;
  }
}

bool TlsStream::hasPending() {
  std::lock_guard<std::mutex> lock(sslMutex);
  return SSL_has_pending(ssl) == 1;
}

ssize_t TlsStream::read(void *data, size_t size, bool dontWait) {
  // Wait for the socket first unless TLS holds bytes already (then the
  // read below needs no system call, or one that finds data): a reader
  // that waits costs one poll() and one recv, not a recv that fails first.
  bool mustWait = !dontWait && !hasPending();
  bool forWrite = false;
  while (true) {
    if (mustWait) {
      if (closed)
        return 0;
      wait(forWrite, -1);
    }
    int rc, why;
    {
      std::lock_guard<std::mutex> lock(sslMutex);
      ERR_clear_error();
      rc = SSL_read(ssl, data, static_cast<int>(std::min<size_t>(size, 1 << 30)));
      if (rc > 0)
        return rc;
      why = SSL_get_error(ssl, rc);
      if (why == SSL_ERROR_ZERO_RETURN)
        return 0;
      if (why != SSL_ERROR_WANT_READ && why != SSL_ERROR_WANT_WRITE) {
        int saved = errno;
        std::string text = why == SSL_ERROR_SYSCALL && saved
                               ? std::string(std::strerror(saved))
                               : sslErrors("the TLS connection broke");
        std::lock_guard<std::mutex> errorLock(errorMutex);
        error = text;
        // A shut-down socket or a peer that just closed reads as the end.
        return (why == SSL_ERROR_SYSCALL && saved == 0) || closed ? 0 : -1;
      }
    }
    if (closed)
      return 0;
    if (dontWait) {
      errno = EAGAIN;
      return -1;
    }
    // Part of a record (or nothing) is in: wait for the rest.
    mustWait = true;
    forWrite = why == SSL_ERROR_WANT_WRITE;
  }
}

bool TlsStream::writeAll(const void *data, size_t size, const void *more,
                         size_t moreSize) {
  std::lock_guard<std::mutex> sending(sendMutex);
  return writeLocked(data, size) && (!moreSize || writeLocked(more, moreSize));
}

bool TlsStream::writeParts(const iovec *parts, size_t count) {
  std::lock_guard<std::mutex> sending(sendMutex);
  char stage[kRecordSize];
  size_t staged = 0;
  auto flush = [&] {
    bool ok = !staged || writeLocked(stage, staged);
    staged = 0;
    return ok;
  };
  for (size_t i = 0; i < count; ++i) {
    const char *p = static_cast<const char *>(parts[i].iov_base);
    size_t left = parts[i].iov_len;
    if (left >= kRecordSize) {
      // Large data goes from where it lies (into records of its own).
      if (!flush() || !writeLocked(p, left))
        return false;
      continue;
    }
    while (left > 0) {
      size_t take = std::min(left, kRecordSize - staged);
      std::memcpy(stage + staged, p, take);
      staged += take;
      p += take;
      left -= take;
      if (staged == kRecordSize && !flush())
        return false;
    }
  }
  return flush();
}

bool TlsStream::writeLocked(const void *data, size_t size) {
  const char *p = static_cast<const char *>(data);
  while (size > 0) {
    if (closed)
      return false;
    int rc, why;
    {
      std::lock_guard<std::mutex> lock(sslMutex);
      ERR_clear_error();
      rc = SSL_write(ssl, p, static_cast<int>(std::min<size_t>(size, 1 << 30)));
      if (rc > 0) {
        p += rc;
        size -= static_cast<size_t>(rc);
        continue;
      }
      why = SSL_get_error(ssl, rc);
      if (why != SSL_ERROR_WANT_READ && why != SSL_ERROR_WANT_WRITE) {
        std::string text = sslErrors(std::strerror(errno));
        std::lock_guard<std::mutex> errorLock(errorMutex);
        error = text;
        return false;
      }
    }
    wait(why == SSL_ERROR_WANT_WRITE, 1000);
  }
  return true;
}

bool TlsStream::readLine(std::string &line, Clock::time_point deadline,
                         size_t maxLength) {
  // One byte at a time: what follows the line belongs to the next reader.
  line.clear();
  while (line.size() < maxLength) {
    char c;
    int rc, why;
    {
      std::lock_guard<std::mutex> lock(sslMutex);
      ERR_clear_error();
      rc = SSL_read(ssl, &c, 1);
      why = rc > 0 ? SSL_ERROR_NONE : SSL_get_error(ssl, rc);
    }
    if (rc == 1) {
      if (c == '\n')
        return true;
      line.push_back(c);
      continue;
    }
    if (why != SSL_ERROR_WANT_READ && why != SSL_ERROR_WANT_WRITE)
      return false;
    int left = millisecondsUntil(deadline);
    if (left <= 0 || !wait(why == SSL_ERROR_WANT_WRITE, left))
      return false;
  }
  return false;
}

void TlsStream::writeFromSignalHandler(const void *data, size_t size) {
  timespec start{}, now{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  auto waited = [&] {
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start.tv_sec) * 1000 +
           (now.tv_nsec - start.tv_nsec) / 1000000;
  };
  while (!sendMutex.try_lock()) {
    if (waited() > 2000) // a loaded machine can need it
      return;
    sched_yield();
  }
  while (!sslMutex.try_lock()) {
    if (waited() > 2000) // a loaded machine can need it
      return;
    sched_yield();
  }
  // Both locks stay taken: the process is about to end.
  const char *p = static_cast<const char *>(data);
  while (size > 0 && waited() < 1000) {
    int rc = SSL_write(ssl, p, static_cast<int>(size));
    if (rc > 0) {
      p += rc;
      size -= static_cast<size_t>(rc);
      continue;
    }
    int why = SSL_get_error(ssl, rc);
    if (why != SSL_ERROR_WANT_WRITE && why != SSL_ERROR_WANT_READ)
      return;
    pollfd pfd{socket, POLLOUT, 0};
    poll(&pfd, 1, 100);
  }
}

} // namespace executor_runtime
