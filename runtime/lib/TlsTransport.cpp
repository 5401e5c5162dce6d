//===- TlsTransport.cpp - SimpleRemoteEPC messages over TLS ---------------===//
#include "ExecutorRuntime/TlsTransport.h"
#include "ExecutorRuntime/TcpTransport.h"

#include "llvm/Support/Endian.h"

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

using namespace llvm;
using namespace llvm::orc;

namespace executor_runtime {

namespace {
constexpr size_t kHeaderSize = 4 * sizeof(uint64_t);
constexpr size_t kReadBuffer = 64 * 1024;

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

Error transportError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
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

ssize_t TlsStream::read(void *data, size_t size) {
  while (true) {
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
    wait(why == SSL_ERROR_WANT_WRITE, -1);
  }
}

bool TlsStream::writeAll(const void *data, size_t size, const void *more,
                         size_t moreSize) {
  std::lock_guard<std::mutex> sending(sendMutex);
  return writeLocked(data, size) && (!moreSize || writeLocked(more, moreSize));
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

//===----------------------------------------------------------------------===//
// TlsTransport
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<TlsTransport>>
TlsTransport::Create(SimpleRemoteEPCTransportClient &client,
                     std::unique_ptr<TlsStream> stream, TlsTransport **created) {
  if (!stream)
    return transportError("no TLS connection");
  auto transport =
      std::unique_ptr<TlsTransport>(new TlsTransport(client, std::move(stream)));
  if (created)
    *created = transport.get();
  return std::move(transport);
}

TlsTransport::~TlsTransport() {
  disconnect();
  if (listener.joinable() && listener.get_id() != std::this_thread::get_id())
    listener.join();
  else if (listener.joinable())
    listener.detach();
}

std::string TlsTransport::hangupMessage() const {
  std::lock_guard<std::mutex> lock(hangupMutex);
  return hangup;
}

void TlsTransport::sendHangupFromSignalHandler(const char *message,
                                               size_t size) {
  char packet[kHeaderSize + 1 + 8 + 512];
  if (size > 512)
    size = 512;
  size_t body = 1 + 8 + size;
  support::endian::write64le(packet, kHeaderSize + body);
  support::endian::write64le(
      packet + 8, static_cast<uint64_t>(SimpleRemoteEPCOpcode::Hangup));
  support::endian::write64le(packet + 16, 0);
  support::endian::write64le(packet + 24, 0);
  packet[kHeaderSize] = 1;
  support::endian::write64le(packet + kHeaderSize + 1, size);
  std::memcpy(packet + kHeaderSize + 9, message, size);
  if (!disconnected)
    stream->writeFromSignalHandler(packet, kHeaderSize + body);
}

Error TlsTransport::start() {
  listener = std::thread([this] { listen(); });
  return Error::success();
}

Error TlsTransport::sendMessage(SimpleRemoteEPCOpcode opcode, uint64_t seqNo,
                                ExecutorAddr tagAddr, ArrayRef<char> argBytes) {
  // A Setup that cannot go out is not an error (see TcpTransport).
  if (disconnected)
    return opcode == SimpleRemoteEPCOpcode::Setup
               ? Error::success()
               : transportError("the session's connection is closed");
  // Small messages leave in one TLS record; large ones after their header.
  constexpr size_t kCoalesce = 16 * 1024;
  char small[kHeaderSize + kCoalesce];
  char *header = small;
  support::endian::write64le(header, kHeaderSize + argBytes.size());
  support::endian::write64le(header + 8, static_cast<uint64_t>(opcode));
  support::endian::write64le(header + 16, seqNo);
  support::endian::write64le(header + 24, tagAddr.getValue());
  bool ok;
  if (argBytes.size() <= kCoalesce) {
    if (!argBytes.empty())
      std::memcpy(small + kHeaderSize, argBytes.data(), argBytes.size());
    ok = stream->writeAll(small, kHeaderSize + argBytes.size());
  } else {
    ok = stream->writeAll(header, kHeaderSize, argBytes.data(),
                          argBytes.size());
  }
  if (!ok && opcode != SimpleRemoteEPCOpcode::Setup)
    return transportError("cannot send over TLS: " + stream->lastError());
  return Error::success();
}

void TlsTransport::disconnect() {
  if (disconnected.exchange(true))
    return;
  stream->shutdown();
}

void TlsTransport::listen() {
  std::vector<char> buffer(kReadBuffer);
  size_t begin = 0, end = 0;
  Error err = Error::success();
  auto failed = [&](ssize_t got) {
    if (got < 0 && !disconnected)
      err = transportError(stream->lastError());
    else if (end != begin)
      err = transportError("connection closed inside a message");
  };
  while (true) {
    while (end - begin < kHeaderSize) {
      if (begin > 0) {
        std::memmove(buffer.data(), buffer.data() + begin, end - begin);
        end -= begin;
        begin = 0;
      }
      ssize_t got = stream->read(buffer.data() + end, buffer.size() - end);
      if (got <= 0) {
        failed(got);
        goto done;
      }
      end += static_cast<size_t>(got);
    }
    {
      const char *h = buffer.data() + begin;
      uint64_t size = support::endian::read64le(h);
      auto opcode =
          static_cast<SimpleRemoteEPCOpcode>(support::endian::read64le(h + 8));
      uint64_t seqNo = support::endian::read64le(h + 16);
      ExecutorAddr tagAddr(support::endian::read64le(h + 24));
      begin += kHeaderSize;
      if (size < kHeaderSize) {
        err = transportError("malformed message: size " + Twine(size));
        goto done;
      }
      size_t bodySize = size - kHeaderSize;
      if (bodySize > TcpTransport::maxMessageSize()) {
        err = transportError(TcpTransport::oversizeMessage(size));
        goto done;
      }
      auto body = shared::WrapperFunctionBuffer::allocate(bodySize);
      if (bodySize > 8 && !body.data()) {
        err = transportError("cannot allocate " + Twine(bodySize) +
                             " bytes for a message (out of memory)");
        goto done;
      }
      char *dst = bodySize ? body.data() : nullptr;
      size_t have = std::min(bodySize, end - begin);
      if (have)
        std::memcpy(dst, buffer.data() + begin, have);
      begin += have;
      while (have < bodySize) {
        ssize_t got = stream->read(dst + have, bodySize - have);
        if (got <= 0) {
          err = transportError(got < 0 ? stream->lastError()
                                       : "connection closed inside a message");
          goto done;
        }
        have += static_cast<size_t>(got);
      }
      if (begin == end)
        begin = end = 0;
      if (opcode == SimpleRemoteEPCOpcode::Hangup && bodySize > 9 &&
          body.data()[0] == 1) {
        uint64_t length = support::endian::read64le(body.data() + 1);
        if (length <= bodySize - 9) {
          std::lock_guard<std::mutex> lock(hangupMutex);
          hangup.assign(body.data() + 9, length);
        }
      }
      auto action =
          client.handleMessage(opcode, seqNo, tagAddr, std::move(body));
      if (!action) {
        err = action.takeError();
        goto done;
      }
      if (*action == SimpleRemoteEPCTransportClient::EndSession)
        goto done;
    }
  }
done:
  disconnect();
  if (err) {
    // What the client reports for its pending calls (ORC says only
    // "disconnecting"), unless the executor said more.
    std::string why = toString(std::move(err));
    {
      std::lock_guard<std::mutex> lock(hangupMutex);
      if (hangup.empty())
        hangup = "the connection broke: " + why;
    }
    err = transportError(why);
  }
  client.handleDisconnect(std::move(err));
}

} // namespace executor_runtime
