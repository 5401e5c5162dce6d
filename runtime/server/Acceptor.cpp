//===- Acceptor.cpp - TCP and Unix-socket listeners -----------------------===//
#include "Acceptor.h"
#include "Auth.h"
#include "ServerFlags.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/Stream.h"
#include "ExecutorRuntime/TlsStream.h"
#include "ExecutorRuntime/UnixSocket.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace executor_studio::runtime {

namespace {
/// Binds and listens on the Unix socket `path`, with file mode `mode`
/// (0600: only this user). A socket file left by a server that is gone is
/// replaced; one that a live server listens on, or a file that is not a
/// socket, is refused. -1 with `error` saying why.
int listenUnix(const std::string &path, unsigned mode, std::string &error) {
  sockaddr_un addr;
  if (!unixSocketAddress(path, addr, error))
    return -1;
  struct stat st;
  if (lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      error = "unix:" + path + " exists and is not a socket; remove it or "
              "choose another path";
      return -1;
    }
    // Someone listening answers a connect; a stale file refuses it.
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool live = probe >= 0 && connect(probe, reinterpret_cast<sockaddr *>(&addr),
                                      sizeof(addr)) == 0;
    int why = errno;
    if (probe >= 0)
      close(probe);
    if (live || (why != ECONNREFUSED && why != ENOENT)) {
      error = "unix:" + path + " is in use: a server listens on it; stop it "
              "or choose another path";
      return -1;
    }
    if (unlink(path.c_str()) != 0 && errno != ENOENT) {
      error = "cannot remove the stale socket file unix:" + path + ": " +
              std::strerror(errno);
      return -1;
    }
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  // Created with no access for anyone else, then given `mode`: there is no
  // moment at which others could connect. (umask is the process's: only
  // the server, single-threaded here, sets it.)
  mode_t old = umask(0177);
  int rc = bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr));
  int bindErrno = errno;
  umask(old);
  if (rc != 0) {
    error = "cannot bind unix:" + path + ": " + std::strerror(bindErrno);
    close(fd);
    return -1;
  }
  if (chmod(path.c_str(), mode) != 0 || listen(fd, 64) != 0) {
    error = "cannot listen on unix:" + path + ": " + std::strerror(errno);
    close(fd);
    unlink(path.c_str());
    return -1;
  }
  return fd;
}
} // namespace

Acceptor::~Acceptor() { stop(); }

void Acceptor::stop() {
  if (listenFd >= 0)
    close(listenFd);
  listenFd = -1;
}

bool isLoopbackAddress(const sockaddr_storage &addr) {
  if (addr.ss_family == AF_INET) {
    auto *in = reinterpret_cast<const sockaddr_in *>(&addr);
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  if (addr.ss_family == AF_INET6) {
    auto *in6 = reinterpret_cast<const sockaddr_in6 *>(&addr);
    return IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
  }
  return false;
}

namespace {
/// HOST:PORT, [v6]:PORT.
std::string describe(const sockaddr_storage &addr) {
  char host[NI_MAXHOST], port[NI_MAXSERV];
  if (getnameinfo(reinterpret_cast<const sockaddr *>(&addr), sizeof(addr),
                  host, sizeof(host), port, sizeof(port),
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return "?";
  if (addr.ss_family == AF_INET6)
    return "[" + std::string(host) + "]:" + port;
  return std::string(host) + ":" + port;
}

/// The host part of a peer (what the token throttle counts by).
std::string peerHost(const sockaddr_storage &addr) {
  char host[NI_MAXHOST];
  if (getnameinfo(reinterpret_cast<const sockaddr *>(&addr), sizeof(addr),
                  host, sizeof(host), nullptr, 0, NI_NUMERICHOST) != 0)
    return "?";
  return host;
}

void setNonBlocking(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

class TcpAcceptor final : public Acceptor {
public:
  TcpAcceptor(int fd, std::chrono::seconds liveness)
      : Acceptor(fd), liveness(liveness) {
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len);
    name = describe(addr);
    listenPort = ntohs(addr.ss_family == AF_INET6
                           ? reinterpret_cast<sockaddr_in6 &>(addr).sin6_port
                           : reinterpret_cast<sockaddr_in &>(addr).sin_port);
  }
  std::string address() const override { return name; }
  unsigned port() const override { return listenPort; }
  bool authenticates(const ServerSecurity &security) const override {
    return security.authenticates();
  }
  int accept(std::string &peerName, std::string &host) override {
    sockaddr_storage peer{};
    socklen_t len = sizeof(peer);
    int fd = accept4(listenFd, reinterpret_cast<sockaddr *>(&peer), &len,
                     SOCK_CLOEXEC);
    if (fd < 0)
      return -1;
    tuneSocket(fd);
    setLivenessTimeout(fd, liveness);
    peerName = describe(peer);
    host = peerHost(peer);
    return fd;
  }
  std::unique_ptr<Stream> stream(int fd,
                                 std::unique_ptr<TlsStream> tls) const override {
    return tls ? tlsStream(std::move(tls)) : socketStream(fd);
  }

private:
  std::chrono::seconds liveness;
  std::string name;
  unsigned listenPort = 0;
};

class UnixAcceptor final : public Acceptor {
public:
  UnixAcceptor(int fd, std::string path) : Acceptor(fd), path(std::move(path)) {}
  std::string address() const override {
    return std::string(kUnixAddressPrefix) + path;
  }
  bool passesDescriptors() const override { return true; }
  bool authenticates(const ServerSecurity &) const override { return false; }
  int accept(std::string &peerName, std::string &host) override {
    int fd = accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0)
      return -1;
    peerName = host = address();
    return fd;
  }
  std::unique_ptr<Stream> stream(int fd,
                                 std::unique_ptr<TlsStream>) const override {
    return unixStream(fd);
  }
  void remove() override { unlink(path.c_str()); }

private:
  std::string path;
};
} // namespace

std::unique_ptr<Acceptor> listenOn(const std::string &address,
                                   bool allowRemote, unsigned unixMode,
                                   std::chrono::seconds liveness) {
  std::string host, port, error;
  if (isUnixAddress(address, &host)) {
    // The default sockets' directory is this user's alone.
    if (host.rfind(privateRuntimeDirectory() + "/", 0) == 0)
      if (std::string problem = makePrivateRuntimeDirectory(); !problem.empty())
        flagError(problem);
    int fd = listenUnix(host, unixMode, error);
    if (fd < 0) {
      std::fprintf(stderr, "%s: %s\n", programName(), error.c_str());
      std::exit(1);
    }
    setNonBlocking(fd);
    return std::make_unique<UnixAcceptor>(fd, host);
  }
  if (!splitAddress(address, host, port, error))
    flagError(error);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo *results = nullptr;
  if (int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &results))
    flagError("cannot resolve " + address + ": " + gai_strerror(rc));
  int fd = -1;
  for (addrinfo *ai = results; ai && fd < 0; ai = ai->ai_next) {
    sockaddr_storage addr{};
    std::memcpy(&addr, ai->ai_addr, ai->ai_addrlen);
    if (!allowRemote && !isLoopbackAddress(addr))
      flagError("refusing to listen on " + address +
                ", which is not a loopback address: pass --allow-remote and "
                "--tls-cert, --tls-key and --token-file to accept remote "
                "sessions");
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0)
      continue;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    // A deep backlog: a flood of connections waits there for the listener
    // to turn it away, and does not make the kernel drop a client's SYN.
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
        listen(fd, SOMAXCONN) < 0) {
      error = std::strerror(errno);
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(results);
  if (fd < 0) {
    // (Catalyst's launcher retries another port when it reads "Address
    // already in use", strerror(EADDRINUSE), here.)
    std::fprintf(stderr, "%s: cannot listen on %s: %s\n", programName(),
                 address.c_str(), error.c_str());
    std::exit(1);
  }
  setNonBlocking(fd);
  return std::make_unique<TcpAcceptor>(fd, liveness);
}

namespace {
rlimit originalFiles{};
bool filesRaised = false;
} // namespace

unsigned long raiseOpenFileLimit() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0)
    return 1024;
  originalFiles = files;
  if (files.rlim_cur < files.rlim_max) {
    rlimit raised = files;
    raised.rlim_cur = files.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) {
      files = raised;
      filesRaised = true;
    }
  }
  // poll takes at most this many descriptors.
  if (files.rlim_cur == RLIM_INFINITY || files.rlim_cur > (1ul << 20))
    return 1ul << 20;
  return static_cast<unsigned long>(files.rlim_cur);
}

void restoreOpenFileLimit() {
  if (filesRaised)
    setrlimit(RLIMIT_NOFILE, &originalFiles);
}

std::string fitPendingBudgets(unsigned &maxPending, unsigned &perAddress,
                              unsigned long files) {
  std::string note;
  unsigned long room = files > kListenerFiles + 16 ? files - kListenerFiles : 16;
  if (maxPending > room) {
    note = "--max-pending " + std::to_string(maxPending) + " lowered to " +
           std::to_string(room) + ": this process may open " +
           std::to_string(files) + " files (ulimit -n)";
    maxPending = static_cast<unsigned>(room);
  }
  if (maxPending == 0)
    maxPending = 1;
  if (perAddress > maxPending)
    perAddress = maxPending;
  if (perAddress == 0)
    perAddress = 1;
  return note;
}

} // namespace executor_studio::runtime
