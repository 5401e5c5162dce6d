//===- WorkerProcess.cpp - a child process that can be stopped --*- C++ -*-===//
#include "ExecutorLsp/WorkerProcess.h"

#include "llvm/ADT/SmallVector.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>

extern char **environ;

using namespace executor_studio::lsp;

WorkerProcess::~WorkerProcess() {
  if (!running)
    return;
  kill();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
}

bool WorkerProcess::start(llvm::StringRef program,
                          llvm::ArrayRef<llvm::StringRef> args,
                          llvm::StringRef stdoutPath,
                          llvm::StringRef stderrPath, std::string &error) {
  std::string programPath = program.str();
  std::string outPath = stdoutPath.str(), errPath = stderrPath.str();
  std::vector<std::string> argStorage(args.begin(), args.end());
  llvm::SmallVector<char *> argv;
  for (std::string &arg : argStorage)
    argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t child = 0;
  int rc = posix_spawn(&child, programPath.c_str(), &actions,
                       /*attrp=*/nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    error = "cannot start " + programPath + ": " + std::strerror(rc);
    return false;
  }
  pid = child;
  running = true;
  return true;
}

bool WorkerProcess::poll(int &exitCode, std::string &error) {
  if (!running)
    return true;
  int status = 0;
  pid_t result = ::waitpid(pid, &status, WNOHANG);
  if (result == 0)
    return false;
  running = false;
  if (result < 0) {
    error = std::string("waitpid: ") + std::strerror(errno);
    exitCode = -1;
    return true;
  }
  if (WIFEXITED(status)) {
    exitCode = WEXITSTATUS(status);
  } else {
    exitCode = -2;
    if (WIFSIGNALED(status))
      error = std::string("killed by signal ") + strsignal(WTERMSIG(status));
  }
  return true;
}

void WorkerProcess::kill() {
  if (running && pid > 0)
    ::kill(pid, SIGKILL);
}
