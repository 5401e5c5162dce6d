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
#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
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
/// Standard input and output (executor-server --stdio under ssh or srun):
/// one descriptor read, another written, pipes or sockets, non-blocking.
/// What the transport polls (fd()) is an epoll set of the input and an
/// eventfd, so shutdown() wakes every reader and writer also on a pipe,
/// which has no shutdown(2).
class StdioStream final : public Stream {
public:
  StdioStream(int in, int out, int watch, int wake)
      : in(in), out(out), watch(watch), wake(wake) {}
  ~StdioStream() override {
    ::close(in);
    if (out != in)
      ::close(out);
    ::close(watch);
    ::close(wake);
  }
  int fd() const override { return watch; }

  ssize_t read(char *into, size_t size, bool dontWait,
               std::deque<int> &) override {
    while (true) {
      if (stopped.load(std::memory_order_acquire))
        return 0;
      ssize_t got = ::read(in, into, size);
      if (got >= 0)
        return got;
      if (errno == EINTR)
        continue;
      if (errno != EAGAIN)
        return -1;
      if (dontWait)
        return -1; // errno EAGAIN
      pollfd p[2] = {{in, POLLIN, 0}, {wake, POLLIN, 0}};
      ::poll(p, 2, -1);
    }
  }

  Error write(iovec *parts, size_t count, int) override {
    size_t remaining = count;
    while (remaining > 0) {
      if (stopped.load(std::memory_order_acquire))
        return streamError("cannot send: the session's standard output was "
                           "shut down");
      ssize_t sent = ::writev(out, parts, std::min<size_t>(remaining, IOV_MAX));
      if (sent < 0) {
        if (errno == EINTR)
          continue;
        if (errno == EAGAIN) {
          pollfd p[2] = {{out, POLLOUT, 0}, {wake, POLLIN, 0}};
          ::poll(p, 2, -1);
          continue;
        }
        return errorCodeToError(std::error_code(errno, std::generic_category()));
      }
      size_t left = static_cast<size_t>(sent);
      while (remaining > 0 && left >= parts->iov_len) {
        left -= parts->iov_len;
        ++parts;
        --remaining;
      }
      if (remaining > 0) {
        parts->iov_base = static_cast<char *>(parts->iov_base) + left;
        parts->iov_len -= left;
      }
    }
    return Error::success();
  }

  // Async-signal-safe: no allocation, at most about a second.
  void writeBeforeExit(const char *data, size_t size) override {
    for (int waits = 0; size > 0 && waits < 100;) {
      ssize_t n = ::write(out, data, size);
      if (n > 0) {
        data += n;
        size -= static_cast<size_t>(n);
      } else if (n < 0 && errno == EAGAIN) {
        pollfd p{out, POLLOUT, 0};
        ::poll(&p, 1, 10);
        ++waits;
      } else if (!(n < 0 && errno == EINTR)) {
        return;
      }
    }
  }

  void shutdown() override {
    stopped.store(true, std::memory_order_release);
    uint64_t one = 1;
    (void)!::write(wake, &one, sizeof(one));
  }

private:
  int in, out, watch, wake;
  std::atomic<bool> stopped{false};
};
} // namespace

std::unique_ptr<Stream> stdioStream(int in, int out, std::string &why) {
  for (int fd : {in, out}) {
    int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
      why = std::string("cannot make standard input and output "
                        "non-blocking: ") + std::strerror(errno);
      return nullptr;
    }
  }
  int watch = ::epoll_create1(EPOLL_CLOEXEC);
  int wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  epoll_event input{}, woken{};
  input.events = EPOLLIN;
  input.data.fd = in;
  woken.events = EPOLLIN;
  woken.data.fd = wake;
  if (watch < 0 || wake < 0 ||
      ::epoll_ctl(watch, EPOLL_CTL_ADD, in, &input) != 0 ||
      ::epoll_ctl(watch, EPOLL_CTL_ADD, wake, &woken) != 0) {
    why = std::string("cannot watch standard input (epoll, eventfd): ") +
          std::strerror(errno);
    if (watch >= 0)
      ::close(watch);
    if (wake >= 0)
      ::close(wake);
    return nullptr;
  }
  return std::make_unique<StdioStream>(in, out, watch, wake);
}

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
