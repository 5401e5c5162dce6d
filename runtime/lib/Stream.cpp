//===- Stream.cpp - the bytes under a session's transport -----------------===//
#include "ExecutorRuntime/Stream.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/TlsStream.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace llvm;

namespace executor_studio::runtime {

Stream::~Stream() = default;
std::string Stream::lastError() const { return std::strerror(errno); }

namespace {
Error streamError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// A connected stream socket: TCP, or a Unix domain socket whose messages
/// may carry a descriptor.
class SocketStream final : public Stream {
public:
  SocketStream(int fd, bool passes) : socket(fd), passes(passes) {}
  ~SocketStream() override { ::close(socket); }
  int fd() const override { return socket; }
  bool passesDescriptors() const override { return passes; }
  void setQuickAck(bool on) override { quickAck = on; }

  ssize_t read(char *into, size_t size, bool dontWait,
               std::deque<int> &passed) override {
    while (true) {
      ssize_t got;
      int flags = dontWait ? MSG_DONTWAIT : 0;
      if (passes) {
        // Up to 4 descriptors a message.
        std::vector<int> fds;
        got = receiveDescriptors(socket, into, size, flags, 4, fds);
        passed.insert(passed.end(), fds.begin(), fds.end());
      } else {
        got = ::recv(socket, into, size, flags);
      }
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0 && errno == EAGAIN && !dontWait)
        continue;
      if (got > 0 && quickAck.load(std::memory_order_relaxed)) {
        int one = 1;
        setsockopt(socket, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
      }
      return got;
    }
  }

  Error write(iovec *parts, size_t count, int passFd) override {
    OneDescriptorControl control;
    msghdr message{};
    message.msg_iov = parts;
    size_t remaining = count;
    if (passFd >= 0)
      attachDescriptor(message, control, passFd);
    while (remaining > 0) {
      message.msg_iovlen = std::min<size_t>(remaining, IOV_MAX);
      ssize_t sent = ::sendmsg(socket, &message, MSG_NOSIGNAL);
      if (sent < 0) {
        if (errno == EINTR || errno == EAGAIN)
          continue;
        return errorCodeToError(std::error_code(errno, std::generic_category()));
      }
      // The descriptor went with the first bytes.
      message.msg_control = nullptr;
      message.msg_controllen = 0;
      // Step past what went out.
      size_t left = static_cast<size_t>(sent);
      while (remaining > 0 && left >= message.msg_iov->iov_len) {
        left -= message.msg_iov->iov_len;
        ++message.msg_iov;
        --remaining;
      }
      if (remaining > 0) {
        message.msg_iov->iov_base =
            static_cast<char *>(message.msg_iov->iov_base) + left;
        message.msg_iov->iov_len -= left;
      }
    }
    return Error::success();
  }

  void writeBeforeExit(const char *data, size_t size) override {
    writeAll(socket, data, size, /*timeoutMs=*/1000);
  }
  void shutdown() override { ::shutdown(socket, SHUT_RDWR); }

private:
  int socket;
  bool passes;
  std::atomic<bool> quickAck{false};
};

/// TLS over TCP: OpenSSL's records (TlsStream owns the socket).
class TlsSocketStream final : public Stream {
public:
  explicit TlsSocketStream(std::unique_ptr<TlsStream> tls)
      : tls(std::move(tls)) {}
  int fd() const override { return tls->fd(); }
  ssize_t read(char *into, size_t size, bool dontWait,
               std::deque<int> &) override {
    ssize_t got = tls->read(into, size, dontWait);
    if (got < 0 && errno != EAGAIN)
      errno = EIO; // lastError() says more
    return got;
  }
  Error write(iovec *parts, size_t count, int) override {
    if (!tls->writeParts(parts, count))
      return streamError("cannot send over TLS: " + tls->lastError());
    return Error::success();
  }
  void writeBeforeExit(const char *data, size_t size) override {
    tls->writeBeforeExit(data, size);
  }
  bool hasPending() override { return tls->hasPending(); }
  std::string lastError() const override { return tls->lastError(); }
  void shutdown() override { tls->shutdown(); }
  std::string security() const override {
    return tls->cipherName() + ", kernel TLS: " + tls->kernelTls();
  }

private:
  std::unique_ptr<TlsStream> tls;
};
} // namespace

std::unique_ptr<Stream> socketStream(int fd) {
  return std::make_unique<SocketStream>(fd, /*passes=*/false);
}
std::unique_ptr<Stream> unixStream(int fd) {
  return std::make_unique<SocketStream>(fd, /*passes=*/true);
}
std::unique_ptr<Stream> tlsStream(std::unique_ptr<TlsStream> tls) {
  return std::make_unique<TlsSocketStream>(std::move(tls));
}

} // namespace executor_studio::runtime
