//===- Subprocess.h - the one way to run a child process --------*- C++ -*-===//
//
// Every part starts its child processes here: the language server's pipeline
// workers, the studio's local executor-server and its private Xvfb, and the
// tests' external executors. It covers what llvm::sys::ExecuteNoWait does
// not: a pipe as a standard stream, a process group of its own, a signal
// when the parent dies (PR_SET_PDEATHSIG), polling and killing. Everything
// the child needs (argv, paths) is allocated before fork(); the child only
// makes async-signal-safe calls until exec, so a multithreaded parent (the
// studio) is safe.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_SUPPORT_SUBPROCESS_H
#define EXECUTORSTUDIO_SUPPORT_SUBPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>

namespace executor_studio {

/// Where a child's standard stream goes.
struct Redirect {
  enum class Kind { Inherit, Null, File, Descriptor };
  Kind kind = Kind::Inherit;
  /// Kind::File: created or truncated, with `mode`.
  std::string path;
  unsigned mode = 0600;
  /// Kind::Descriptor: duplicated onto the stream (a pipe's end).
  int fd = -1;

  static Redirect inherit() { return {}; }
  static Redirect null() { return {Kind::Null, "", 0, -1}; }
  static Redirect file(std::string path, unsigned mode = 0600) {
    return {Kind::File, std::move(path), mode, -1};
  }
  static Redirect descriptor(int fd) { return {Kind::Descriptor, "", 0, fd}; }
};

struct SubprocessOptions {
  Redirect in = Redirect::null(), out, err;
  /// Its own process group (signalGroup() then reaches its children).
  bool newProcessGroup = false;
  /// Sent to the child when the thread that started it exits (0: none).
  int parentDeathSignal = 0;
  /// Look `args[0]` up in PATH when it has no slash.
  bool searchPath = false;
};

class Subprocess {
public:
  Subprocess() = default;
  Subprocess(const Subprocess &) = delete;
  Subprocess &operator=(const Subprocess &) = delete;
  /// Kills (SIGKILL, to its group when it has one) and reaps it if it still
  /// runs.
  ~Subprocess();

  /// Starts `args[0]` with `args`. Fails with the reason when the program
  /// is not found or fork fails; a program that cannot be executed exits
  /// with 127.
  llvm::Error start(llvm::ArrayRef<std::string> args,
                    const SubprocessOptions &options = {});

  /// Whether it has exited (then it is reaped, and exitCode() is set);
  /// true when it was never started.
  bool poll();
  /// Waits up to `timeout` for it to exit; whether it did.
  bool waitFor(std::chrono::milliseconds timeout);
  /// Sends `signal` to the process.
  void signal(int signal);
  /// Sends `signal` to its process group (the process alone when it has
  /// none).
  void signalGroup(int signal);
  /// SIGTERM, up to `grace` to exit, then SIGKILL to the group; reaps it.
  void terminate(std::chrono::milliseconds grace);
  /// SIGKILL to the group; reaps it.
  void kill();

  bool running() const { return pid > 0; }
  pid_t processId() const { return pid; }
  /// Its exit code after poll() said it exited: -2 when a signal ended it.
  int exitCode() const { return code; }
  /// "exit code N" or "killed by signal NAME".
  const std::string &exitDescription() const { return description; }
  /// The signal that ended it (0: it exited, or still runs).
  int terminationSignal() const { return termSignal; }

private:
  void reaped(int status);

  pid_t pid = -1;
  bool group = false;
  int code = 0;
  int termSignal = 0;
  std::string description;
};

} // namespace executor_studio

#endif // EXECUTORSTUDIO_SUPPORT_SUBPROCESS_H
