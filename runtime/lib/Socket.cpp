//===- Socket.cpp - TCP helpers shared by client and server ---------------===//
#include "ExecutorRuntime/Socket.h"
#include "ExecutorStudio/Support/Address.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

namespace executor_studio::runtime {

bool splitAddress(const std::string &address, std::string &host,
                  std::string &port, std::string &error) {
  AddressParts parts;
  std::string problem = parseAddress(address, &parts);
  if (problem.empty() && parts.unixSocket)
    problem = "is a Unix socket, not host:port";
  if (problem.empty() && (parts.ssh || parts.slurm))
    problem = std::string("starts executor-server through ") +
              (parts.ssh ? "ssh" : "srun") + ", and is not host:port";
  if (problem.empty() && parts.placeholder)
    problem = "has the placeholder port '" + parts.port +
              "'; map the address to HOST:PORT with EXECUTOR_ADDRESS_MAP";
  if (!problem.empty()) {
    error = "address '" + address + "' " + problem;
    return false;
  }
  host = parts.host;
  port = parts.port;
  return true;
}

namespace {
/// Why the EXECUTOR_ADDRESS_MAP entry FROM=... does not map `address`.
std::string whyNotMapped(const std::string &address, const std::string &from) {
  AddressParts wanted, entry;
  bool hostPort = parseAddress(address, &wanted).empty() && !wanted.unixSocket;
  if (hostPort && from == wanted.host)
    return "'" + from + "' is its host alone; FROM is the whole address, '" +
           address + "'";
  if (hostPort && parseAddress(from, &entry).empty() &&
      entry.host == wanted.host)
    return "'" + from + "' has port " + entry.port + ", not " + wanted.port;
  return "'" + from + "' is another address";
}
} // namespace

bool mapAddress(const std::string &address, std::string &mapped,
                std::string &error, std::string *unmatched) {
  mapped = address;
  if (unmatched)
    unmatched->clear();
  const char *map = std::getenv("EXECUTOR_ADDRESS_MAP");
  if (!map || !*map)
    return true;
  std::string entries(map);
  bool found = false;
  size_t start = 0;
  while (start <= entries.size()) {
    size_t comma = entries.find(',', start);
    std::string entry = entries.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t eq = entry.find('=');
    std::string from = eq == std::string::npos ? "" : entry.substr(0, eq);
    std::string to = eq == std::string::npos ? "" : entry.substr(eq + 1);
    std::string host, port, why;
    AddressParts target;
    // (unix:PATH, ssh:// and slurm: are taken as they are.)
    bool toUnix = parseAddress(to, &target).empty() &&
                  (target.unixSocket || target.ssh || target.slurm);
    if (from.empty() || (!toUnix && !splitAddress(to, host, port, why))) {
      error = "EXECUTOR_ADDRESS_MAP entry '" + entry +
              "' is not FROM=HOST:PORT";
      if (!from.empty())
        error += " (" + why + ")";
      error += "; write the entries as FROM=HOST:PORT separated by ',', "
               "e.g. ADDR:PORT=127.0.0.1:7000,gpu:1=10.0.0.2:7000 (an "
               "executor on this host: FROM=unix:PATH; through ssh: "
               "FROM=ssh://[user@]host[/path/to/executor-server])";
      return false;
    }
    if (!found && from == address) {
      mapped = to;
      found = true;
    }
    if (unmatched && from != address)
      *unmatched += (unmatched->empty() ? "EXECUTOR_ADDRESS_MAP has no entry "
                                          "for " + address + ": "
                                        : "; ") +
                    "'" + entry + "' does not match (" +
                    whyNotMapped(address, from) + ")";
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (unmatched && found)
    unmatched->clear();
  return true;
}

void tuneSocket(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  // Large memrefs stream in fewer, larger steps with deeper buffers (the
  // kernel caps the request at net.core.{w,r}mem_max).
  int bytes = 4 << 20;
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes));
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
}

namespace {
/// "cannot connect to ADDRESS: WHY", with a hint where nothing listens.
std::string connectProblem(const std::string &address, int why) {
  std::string text =
      "cannot connect to " + address + ": " + std::strerror(why);
  if (why == ECONNREFUSED)
    text += " (is an executor-server listening there?)";
  return text;
}
} // namespace

int connectTo(const std::string &address, std::chrono::milliseconds timeout,
              std::string &error) {
  std::string host, port;
  if (!splitAddress(address, host, port, error))
    return -1;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo *results = nullptr;
  if (int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &results)) {
    error = "cannot resolve " + address + ": " + gai_strerror(rc);
    return -1;
  }
  error = "no address for " + address;
  int fd = -1;
  for (addrinfo *ai = results; ai; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      error = std::string("socket: ") + std::strerror(errno);
      continue;
    }
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
    if (rc < 0 && errno == EINPROGRESS) {
      rc = pollFor(fd, POLLOUT, static_cast<int>(timeout.count()));
      if (rc == 0) {
        error = "connecting to " + address + " timed out after " +
                std::to_string(timeout.count()) + " ms";
        close(fd);
        fd = -1;
        continue;
      }
      int soError = 0;
      socklen_t len = sizeof(soError);
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len);
      if (soError != 0) {
        error = connectProblem(address, soError);
        close(fd);
        fd = -1;
        continue;
      }
      rc = 0;
    }
    if (rc < 0) {
      error = connectProblem(address, errno);
      close(fd);
      fd = -1;
      continue;
    }
    fcntl(fd, F_SETFL, flags);
    tuneSocket(fd);
    break;
  }
  freeaddrinfo(results);
  return fd;
}

int bindLoopback(bool listen, std::string &address) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0 ||
      (listen && ::listen(fd, 4) != 0) ||
      getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) != 0) {
    close(fd);
    return -1;
  }
  address = "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  return fd;
}

namespace {
/// CLOCK_MONOTONIC in milliseconds (clock_gettime is async-signal-safe).
long monotonicMs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000 + now.tv_nsec / 1000000;
}
} // namespace

bool writeAll(int fd, const void *data, size_t size, int timeoutMs) {
  const char *p = static_cast<const char *>(data);
  long start = timeoutMs >= 0 ? monotonicMs() : 0;
  while (size > 0) {
    ssize_t n = ::send(fd, p, size,
                       MSG_NOSIGNAL | (timeoutMs >= 0 ? MSG_DONTWAIT : 0));
    if (n > 0) {
      p += n;
      size -= static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      int wait = -1;
      if (timeoutMs >= 0) {
        long waited = monotonicMs() - start;
        if (waited >= timeoutMs)
          return false;
        wait = static_cast<int>(timeoutMs - waited);
      }
      pollFor(fd, POLLOUT, wait);
      continue;
    }
    return false;
  }
  return true;
}

bool readLine(int fd, std::string &line,
              std::chrono::steady_clock::time_point deadline,
              size_t maxLength) {
  line.clear();
  while (line.size() < maxLength) {
    if (millisecondsUntil(deadline) <= 0 || pollUntil(fd, POLLIN, deadline) <= 0)
      return false;
    char c;
    // One byte at a time: nothing after the line may be consumed, the ORC
    // transport reads the rest.
    ssize_t n = ::read(fd, &c, 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    if (c == '\n')
      return true;
    line.push_back(c);
  }
  return false;
}

int millisecondsUntil(std::chrono::steady_clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

int pollFor(int fd, short events, int timeoutMs) {
  pollfd p{fd, events, 0};
  while (true) {
    int rc = ::poll(&p, 1, timeoutMs);
    if (rc >= 0 || errno != EINTR)
      return rc;
  }
}

int pollUntil(int fd, short events,
              std::chrono::steady_clock::time_point deadline) {
  pollfd p{fd, events, 0};
  while (true) {
    int rc = ::poll(&p, 1, millisecondsUntil(deadline));
    if (rc >= 0 || errno != EINTR)
      return rc;
  }
}

bool tryLockFor(std::mutex &mutex, int timeoutMs) {
  long start = monotonicMs();
  while (!mutex.try_lock()) {
    if (monotonicMs() - start > timeoutMs)
      return false;
    sched_yield();
  }
  return true;
}

void attachDescriptor(msghdr &message, OneDescriptorControl &control,
                      int fd) {
  std::memset(&control, 0, sizeof(control));
  message.msg_control = control.bytes;
  message.msg_controllen = sizeof(control.bytes);
  cmsghdr *c = CMSG_FIRSTHDR(&message);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
}

ssize_t receiveDescriptors(int socket, char *into, size_t size, int flags,
                           size_t maxDescriptors, std::vector<int> &passed) {
  union {
    cmsghdr align;
    char bytes[CMSG_SPACE(kMaxReceivedDescriptors * sizeof(int))];
  } control;
  iovec iov{into, size};
  msghdr message{};
  message.msg_iov = &iov;
  message.msg_iovlen = 1;
  message.msg_control = control.bytes;
  message.msg_controllen =
      CMSG_SPACE(std::min(maxDescriptors, kMaxReceivedDescriptors) * sizeof(int));
  ssize_t got = ::recvmsg(socket, &message, MSG_CMSG_CLOEXEC | flags);
  if (got < 0)
    return got;
  for (cmsghdr *c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
      continue;
    size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < n; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
      passed.push_back(fd);
    }
  }
  return got;
}

} // namespace executor_studio::runtime
