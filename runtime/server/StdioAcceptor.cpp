//===- StdioAcceptor.cpp - executor-server --stdio's one connection -------===//
#include "StdioAcceptor.h"
#include "ExecutorRuntime/Stream.h"
#include "ExecutorRuntime/TlsStream.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace executor_studio::runtime {

namespace {
class StdioAcceptor final : public Acceptor {
public:
  explicit StdioAcceptor(int out) : Acceptor(-1), out(out) {}
  std::string address() const override { return "stdio"; }
  bool authenticates(const ServerSecurity &) const override { return false; }
  int accept(std::string &, std::string &) override { return -1; }
  std::unique_ptr<Stream> stream(int fd,
                                 std::unique_ptr<TlsStream>) const override {
    std::string why;
    std::unique_ptr<Stream> made = stdioStream(fd, out, why);
    if (!made) {
      std::fprintf(stderr, "executor-server: %s\n", why.c_str());
      std::fflush(stderr);
      _exit(1);
    }
    return made;
  }

private:
  int out;
};
} // namespace

std::unique_ptr<Acceptor> takeStandardStreams(int &in, int &out) {
  if (isatty(STDIN_FILENO)) {
    std::fprintf(stderr,
                 "executor-server: --stdio speaks ORC's binary protocol on "
                 "standard input and output for the client that starts it "
                 "(an ssh:// address); not on a terminal: to serve clients "
                 "that connect, start it with --bind\n");
    std::exit(2);
  }
  // srun --unbuffered gives a task's output a pseudo-terminal: raw, so
  // that every byte passes as it is.
  if (isatty(STDOUT_FILENO)) {
    termios mode{};
    bool raw = tcgetattr(STDOUT_FILENO, &mode) == 0;
    if (raw) {
      cfmakeraw(&mode);
      raw = tcsetattr(STDOUT_FILENO, TCSANOW, &mode) == 0;
    }
    if (!raw) {
      std::fprintf(stderr,
                   "executor-server: --stdio: standard output is a "
                   "terminal that cannot be made raw: %s\n",
                   std::strerror(errno));
      std::exit(2);
    }
  }
  in = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
  out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (in < 0 || out < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0 ||
      dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::fprintf(stderr,
                 "executor-server: --stdio: cannot take standard "
                 "input and output: %s\n",
                 std::strerror(errno));
    std::exit(1);
  }
  close(null);
  return std::make_unique<StdioAcceptor>(out);
}

} // namespace executor_studio::runtime
