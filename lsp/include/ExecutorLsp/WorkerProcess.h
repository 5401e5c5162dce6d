//===- WorkerProcess.h - a child process that can be stopped ----*- C++ -*-===//
#ifndef EXECUTORLSP_WORKERPROCESS_H
#define EXECUTORLSP_WORKERPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace executor_studio {
namespace lsp {

/// A child process (POSIX) with its output in files, polled without
/// blocking, so that several can run at once and each can be killed.
class WorkerProcess {
public:
  WorkerProcess() = default;
  WorkerProcess(const WorkerProcess &) = delete;
  WorkerProcess &operator=(const WorkerProcess &) = delete;
  /// Kills and reaps the process if it is still running.
  ~WorkerProcess();

  /// Starts `program` with `args` (args[0] is the program name) and its
  /// standard output and error in the given files.
  bool start(llvm::StringRef program, llvm::ArrayRef<llvm::StringRef> args,
             llvm::StringRef stdoutPath, llvm::StringRef stderrPath,
             std::string &error);

  /// Whether it has exited; then `exitCode` is set (-2 for a signal).
  bool poll(int &exitCode, std::string &error);

  /// Sends SIGKILL; poll() reaps it.
  void kill();

  bool isRunning() const { return running; }

private:
  int pid = 0;
  bool running = false;
};

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_WORKERPROCESS_H
