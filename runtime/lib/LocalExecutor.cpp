//===- LocalExecutor.cpp - an executor-server started on demand -----------===//
#include "ExecutorRuntime/LocalExecutor.h"
#include "ExecutorRuntime/Socket.h"

#include "ExecutorStudio/Support/Subprocess.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace executor_studio::runtime {

static llvm::Error failure(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

LocalExecutor::LocalExecutor()
    : process(std::make_unique<executor_studio::Subprocess>()) {}

LocalExecutor::~LocalExecutor() { stop(); }

bool LocalExecutor::running() const { return process->running(); }

pid_t LocalExecutor::processId() const { return process->processId(); }

llvm::Error LocalExecutor::start(const std::string &serverPath,
                                 const std::vector<std::string> &extraArgs,
                                 const std::string &logPath,
                                 std::chrono::milliseconds timeout) {
  stop();
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0)
    return failure(std::string("pipe: ") + std::strerror(errno));
  std::string bind = "127.0.0.1:0";
  if (unixSocket) {
    static std::atomic<unsigned> count{0};
    const char *dir = std::getenv("XDG_RUNTIME_DIR");
    if (!dir || !*dir || access(dir, W_OK) != 0)
      dir = std::getenv("TMPDIR");
    if (!dir || !*dir)
      dir = "/tmp";
    std::string name = "/executor-studio-" + std::to_string(getpid()) + "-" +
                       std::to_string(count++) + ".sock";
    socketPath = std::string(dir) + name;
    if (socketPath.size() >= 100) // sockaddr_un holds 107 bytes
      socketPath = "/tmp" + name;
    bind = "unix:" + socketPath;
  }
  std::vector<std::string> args = {serverPath, "--bind", bind};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  executor_studio::SubprocessOptions options;
  options.out = executor_studio::Redirect::descriptor(out[1]);
  if (!logPath.empty())
    options.err = executor_studio::Redirect::file(logPath, 0644);
  options.newProcessGroup = true;
  // The server goes when its starter goes, even if that was killed.
  options.parentDeathSignal = SIGTERM;
  llvm::Error started = process->start(args, options);
  close(out[1]);
  if (started) {
    close(out[0]);
    return started;
  }
  std::string line;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (millisecondsUntil(deadline) <= 0 ||
        pollUntil(out[0], POLLIN, deadline) <= 0) {
      close(out[0]);
      stop();
      return failure("executor-server (" + serverPath +
                     ") did not report 'listening on' in time");
    }
    char c;
    ssize_t n = read(out[0], &c, 1);
    if (n <= 0) {
      close(out[0]);
      stop();
      return failure("executor-server (" + serverPath +
                     ") exited before listening");
    }
    if (c != '\n') {
      line.push_back(c);
      continue;
    }
    if (line.rfind("listening on ", 0) == 0) {
      listening = line.substr(strlen("listening on "));
      break;
    }
    line.clear();
  }
  close(out[0]);
  return llvm::Error::success();
}

void LocalExecutor::stop() {
  if (!process->running())
    return;
  // The server removes its socket file when it stops; a killed one cannot.
  process->terminate(std::chrono::seconds(2));
  if (!socketPath.empty())
    unlink(socketPath.c_str());
  socketPath.clear();
}

void LocalExecutor::kill() {
  if (!process->running())
    return;
  process->kill();
  if (!socketPath.empty())
    unlink(socketPath.c_str());
  socketPath.clear();
}

std::vector<pid_t> LocalExecutor::sessionProcesses() const {
  std::vector<pid_t> children;
  pid_t pid = process->processId();
  if (pid <= 0)
    return children;
  std::ifstream in("/proc/" + std::to_string(pid) + "/task/" +
                   std::to_string(pid) + "/children");
  pid_t child;
  while (in >> child)
    children.push_back(child);
  return children;
}

std::string LocalExecutor::defaultServerPath(const char *argv0) {
  if (argv0) {
    std::string self(argv0);
    size_t slash = self.rfind('/');
    if (slash != std::string::npos) {
      std::string candidate = self.substr(0, slash) + "/executor-server";
      if (access(candidate.c_str(), X_OK) == 0)
        return candidate;
    }
  }
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n > 0) {
    self[n] = 0;
    std::string dir(self);
    dir = dir.substr(0, dir.rfind('/'));
    std::string candidate = dir + "/executor-server";
    if (access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
#ifdef EXECUTOR_STUDIO_BIN_DIR
  return std::string(EXECUTOR_STUDIO_BIN_DIR) + "/executor-server";
#else
  return "executor-server";
#endif
}

} // namespace executor_studio::runtime
