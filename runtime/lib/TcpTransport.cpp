//===- TcpTransport.cpp - SimpleRemoteEPC messages over a socket ----------===//
#include "ExecutorRuntime/TcpTransport.h"

#include "llvm/Support/Endian.h"

#include <cerrno>
#include <cstring>
#include <sched.h>
#include <time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace llvm::orc;

namespace executor_runtime {

namespace {
constexpr size_t kHeaderSize = 4 * sizeof(uint64_t);
constexpr size_t kReadBuffer = 64 * 1024;

Error transportError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}
} // namespace

namespace {
std::atomic<uint64_t> messageLimit{UINT64_MAX};
std::mutex refusalMutex;
std::string refusal;
} // namespace

void TcpTransport::setMaxMessageSize(uint64_t bytes) { messageLimit = bytes; }
uint64_t TcpTransport::maxMessageSize() { return messageLimit; }
std::string TcpTransport::oversizeMessage(uint64_t size) {
  std::string message = "a message of " + std::to_string(size) +
                        " bytes is larger than the limit of " +
                        std::to_string(messageLimit.load()) +
                        " bytes (executor-server --max-message-size)";
  std::lock_guard<std::mutex> lock(refusalMutex);
  refusal = message;
  return message;
}

std::string TcpTransport::lastRefusal() {
  std::lock_guard<std::mutex> lock(refusalMutex);
  return refusal;
}

Expected<std::unique_ptr<TcpTransport>>
TcpTransport::Create(SimpleRemoteEPCTransportClient &client, int fd) {
  if (fd < 0)
    return transportError("invalid socket " + Twine(fd));
  return std::unique_ptr<TcpTransport>(new TcpTransport(client, fd));
}

Expected<std::unique_ptr<TcpTransport>>
TcpTransport::Create(SimpleRemoteEPCTransportClient &client, int fd,
                     TcpTransport **created) {
  auto transport = Create(client, fd);
  if (transport && created)
    *created = transport->get();
  return transport;
}

std::string TcpTransport::hangupMessage() const {
  std::lock_guard<std::mutex> lock(hangupMutex);
  return hangup;
}

void TcpTransport::sendHangupFromSignalHandler(const char *message,
                                               size_t size) {
  // The body is an SPSError: u8 has-error (1), u64 length, the bytes.
  char packet[kHeaderSize + 1 + 8 + 512];
  if (size > 512)
    size = 512;
  size_t body = 1 + 8 + size;
  support::endian::write64le(packet, kHeaderSize + body);
  support::endian::write64le(packet + 8,
                             static_cast<uint64_t>(SimpleRemoteEPCOpcode::Hangup));
  support::endian::write64le(packet + 16, 0);
  support::endian::write64le(packet + 24, 0);
  packet[kHeaderSize] = 1;
  support::endian::write64le(packet + kHeaderSize + 1, size);
  std::memcpy(packet + kHeaderSize + 9, message, size);
  // Another thread may be in the middle of a message: wait for it, up to
  // 2 s, which a loaded machine can need (the crashing thread itself never
  // holds the lock while in a kernel).
  timespec start{}, now{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (!sendMutex.try_lock()) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((now.tv_sec - start.tv_sec) * 1000 +
            (now.tv_nsec - start.tv_nsec) / 1000000 > 2000)
      return;
    sched_yield();
  }
  if (disconnected)
    return;
  const char *p = packet;
  size_t left = kHeaderSize + body;
  while (left > 0) {
    ssize_t sent = ::send(fd, p, left, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR)
      continue;
    if (sent <= 0)
      return;
    p += sent;
    left -= static_cast<size_t>(sent);
  }
  // The lock stays taken: the process is about to end.
}

TcpTransport::~TcpTransport() {
  disconnect();
  if (listener.joinable() && listener.get_id() != std::this_thread::get_id())
    listener.join();
  else if (listener.joinable())
    listener.detach();
  ::close(fd);
}

Error TcpTransport::start() {
  listener = std::thread([this] { listen(); });
  return Error::success();
}

Error TcpTransport::sendMessage(SimpleRemoteEPCOpcode opcode, uint64_t seqNo,
                                ExecutorAddr tagAddr, ArrayRef<char> argBytes) {
  char header[kHeaderSize];
  support::endian::write64le(header, kHeaderSize + argBytes.size());
  support::endian::write64le(header + 8, static_cast<uint64_t>(opcode));
  support::endian::write64le(header + 16, seqNo);
  support::endian::write64le(header + 24, tagAddr.getValue());
  iovec parts[2] = {{header, kHeaderSize},
                    {const_cast<char *>(argBytes.data()), argBytes.size()}};
  std::lock_guard<std::mutex> lock(sendMutex);
  // A Setup that cannot go out is not an error: the reader has seen why the
  // connection ended and reports it. (An error here makes ORC's
  // SimpleRemoteEPCServer::Create destroy the server while the reader is in
  // its handleDisconnect: a crash, when a client's first bytes are bad.)
  if (disconnected)
    return opcode == SimpleRemoteEPCOpcode::Setup
               ? Error::success()
               : transportError("the session's connection is closed");
  msghdr message{};
  message.msg_iov = parts;
  message.msg_iovlen = argBytes.empty() ? 1 : 2;
  while (message.msg_iovlen > 0) {
    ssize_t sent = ::sendmsg(fd, &message, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR || errno == EAGAIN)
        continue;
      if (opcode == SimpleRemoteEPCOpcode::Setup)
        return Error::success(); // as above
      return errorCodeToError(std::error_code(errno, std::generic_category()));
    }
    // Step past what went out.
    size_t left = static_cast<size_t>(sent);
    while (message.msg_iovlen > 0 && left >= message.msg_iov->iov_len) {
      left -= message.msg_iov->iov_len;
      ++message.msg_iov;
      --message.msg_iovlen;
    }
    if (message.msg_iovlen > 0) {
      message.msg_iov->iov_base = static_cast<char *>(message.msg_iov->iov_base) + left;
      message.msg_iov->iov_len -= left;
    }
  }
  return Error::success();
}

void TcpTransport::disconnect() {
  if (disconnected.exchange(true))
    return;
  // Wakes the reader, whose recv then sees the end of the stream.
  ::shutdown(fd, SHUT_RDWR);
}

void TcpTransport::listen() {
  std::vector<char> buffer(kReadBuffer);
  size_t begin = 0, end = 0;
  Error err = Error::success();
  // Appends what the socket has to the buffer.
  auto ackNow = [&] {
    if (quickAck.load(std::memory_order_relaxed)) {
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
    }
  };
  auto fill = [&]() -> ssize_t {
    while (true) {
      ssize_t got = ::recv(fd, buffer.data() + end, buffer.size() - end, 0);
      if (got < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      ackNow();
      return got;
    }
  };
  while (true) {
    // The header.
    while (end - begin < kHeaderSize) {
      if (begin > 0) {
        std::memmove(buffer.data(), buffer.data() + begin, end - begin);
        end -= begin;
        begin = 0;
      }
      ssize_t got = fill();
      if (got <= 0) {
        if ((got < 0 && !disconnected) || end != begin)
          err = transportError(got < 0 ? std::strerror(errno)
                                       : "connection closed inside a message");
        goto done;
      }
      end += static_cast<size_t>(got);
    }
    {
      const char *h = buffer.data() + begin;
      uint64_t size = support::endian::read64le(h);
      auto opcode = static_cast<SimpleRemoteEPCOpcode>(support::endian::read64le(h + 8));
      uint64_t seqNo = support::endian::read64le(h + 16);
      ExecutorAddr tagAddr(support::endian::read64le(h + 24));
      begin += kHeaderSize;
      if (size < kHeaderSize) {
        err = transportError("malformed message: size " + Twine(size));
        goto done;
      }
      size_t bodySize = size - kHeaderSize;
      if (bodySize > maxMessageSize()) {
        err = transportError(oversizeMessage(size));
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
      // The rest of a large body goes straight into it.
      while (have < bodySize) {
        ssize_t got = ::recv(fd, dst + have, bodySize - have, 0);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
          continue;
        ackNow();
        if (got <= 0) {
          err = transportError(got < 0 ? std::strerror(errno)
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
      auto action = client.handleMessage(opcode, seqNo, tagAddr, std::move(body));
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
