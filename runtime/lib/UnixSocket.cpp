//===- UnixSocket.cpp - executors on this host, over a Unix socket --------===//
#include "ExecutorRuntime/UnixSocket.h"
#include "ExecutorStudio/Support/Address.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace executor_studio::runtime {

bool isUnixAddress(const std::string &address, std::string *path) {
  if (address.compare(0, kUnixAddressPrefix.size(), kUnixAddressPrefix) != 0)
    return false;
  if (path)
    *path = address.substr(kUnixAddressPrefix.size());
  return true;
}

bool unixSocketAddress(const std::string &path, sockaddr_un &addr,
                       std::string &error) {
  addr = {};
  addr.sun_family = AF_UNIX;
  std::string address = std::string(kUnixAddressPrefix) + path;
  std::string problem = parseAddress(address);
  if (!problem.empty()) {
    error = "address '" + address + "' " + problem;
    return false;
  }
  static_assert(kMaxUnixPath < sizeof(addr.sun_path));
  std::memcpy(addr.sun_path, path.data(), path.size());
  return true;
}

void tuneUnixSocket(int fd) {
  // Large messages in fewer steps (most of a big buffer goes in shared
  // memory anyway).
  int bytes = 4 << 20;
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes));
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
}

int connectUnix(const std::string &path, std::chrono::milliseconds timeout,
                std::string &error) {
  sockaddr_un addr;
  if (!unixSocketAddress(path, addr, error))
    return -1;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  // A Unix connect does not wait for the server to accept (the backlog
  // takes it) unless the backlog is full: then retry until `timeout`.
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0) {
    if (errno == EINTR)
      continue;
    if (errno == EAGAIN && std::chrono::steady_clock::now() < deadline) {
      poll(nullptr, 0, 5);
      continue;
    }
    error = "cannot connect to unix:" + path + ": " + std::strerror(errno);
    if (errno == ENOENT || errno == ECONNREFUSED)
      error += " (is an executor-server listening there?)";
    close(fd);
    return -1;
  }
  tuneUnixSocket(fd);
  return fd;
}


} // namespace executor_studio::runtime
