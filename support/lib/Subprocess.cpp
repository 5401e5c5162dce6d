//===- Subprocess.cpp - the one way to run a child process ------*- C++ -*-===//
#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/Support/Program.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace executor_studio;

Subprocess::~Subprocess() { kill(); }

llvm::Error Subprocess::start(llvm::ArrayRef<std::string> args,
                              const SubprocessOptions &options) {
  kill();
  code = 0;
  description.clear();
  if (args.empty())
    return llvm::createStringError("no program to start");
  // Everything the child uses is allocated here, before fork().
  std::string program = args.front();
  if (options.searchPath && program.find('/') == std::string::npos) {
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(program);
    if (!found)
      return llvm::createStringError("cannot find " + program + " in PATH");
    program = *found;
  }
  if (::access(program.c_str(), X_OK) != 0)
    return llvm::createStringError("cannot start " + program + ": " +
                                   std::strerror(errno));
  std::vector<std::string> storage(args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &arg : storage)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  const Redirect *redirects[3] = {&options.in, &options.out, &options.err};

  pid_t child = ::fork();
  if (child < 0)
    return llvm::createStringError(std::string("fork: ") +
                                   std::strerror(errno));
  if (child == 0) {
    // Async-signal-safe calls only.
    if (options.newProcessGroup)
      ::setpgid(0, 0);
    if (options.parentDeathSignal)
      ::prctl(PR_SET_PDEATHSIG, options.parentDeathSignal);
    for (int stream = 0; stream < 3; ++stream) {
      const Redirect &r = *redirects[stream];
      int fd = -1;
      switch (r.kind) {
      case Redirect::Kind::Inherit:
        continue;
      case Redirect::Kind::Null:
        fd = ::open("/dev/null", stream == 0 ? O_RDONLY : O_WRONLY);
        break;
      case Redirect::Kind::File:
        fd = ::open(r.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, r.mode);
        break;
      case Redirect::Kind::Descriptor:
        fd = r.fd;
        break;
      }
      if (fd < 0 || ::dup2(fd, stream) < 0)
        ::_exit(127);
    }
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  if (options.newProcessGroup)
    ::setpgid(child, child); // (also in the child: whichever runs first)
  pid = child;
  group = options.newProcessGroup;
  return llvm::Error::success();
}

void Subprocess::reaped(int status) {
  pid = -1;
  group = false;
  if (WIFEXITED(status)) {
    code = WEXITSTATUS(status);
    description = "exit code " + std::to_string(code);
  } else {
    code = -2;
    termSignal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    description = WIFSIGNALED(status)
                      ? std::string("killed by signal ") +
                            ::strsignal(WTERMSIG(status))
                      : std::string("stopped");
  }
}

bool Subprocess::poll() {
  if (pid <= 0)
    return true;
  int status = 0;
  pid_t result = ::waitpid(pid, &status, WNOHANG);
  if (result == 0)
    return false;
  if (result < 0) {
    if (errno == EINTR)
      return false;
    pid = -1;
    code = -1;
    description = std::string("waitpid: ") + std::strerror(errno);
    return true;
  }
  reaped(status);
  return true;
}

bool Subprocess::waitFor(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!poll()) {
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

void Subprocess::signal(int signal) {
  if (pid > 0)
    ::kill(pid, signal);
}

void Subprocess::signalGroup(int signal) {
  if (pid > 0)
    ::kill(group ? -pid : pid, signal);
}

void Subprocess::terminate(std::chrono::milliseconds grace) {
  if (pid <= 0)
    return;
  signal(SIGTERM);
  if (!waitFor(grace))
    kill();
}

void Subprocess::kill() {
  if (pid <= 0)
    return;
  signalGroup(SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  reaped(status);
}
