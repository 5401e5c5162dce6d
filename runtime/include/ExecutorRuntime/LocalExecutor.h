//===- LocalExecutor.h - an executor-server started on demand ---*- C++ -*-===//
//
// Spawns executor-server on a free loopback port and stops it again: the
// GUI's "Start local executor", the end-to-end tests and the benchmarks.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_LOCALEXECUTOR_H
#define EXECUTORRUNTIME_LOCALEXECUTOR_H

#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace executor_studio {
class Subprocess;
} // namespace executor_studio

namespace executor_studio::runtime {

class LocalExecutor {
public:
  LocalExecutor();
  LocalExecutor(const LocalExecutor &) = delete;
  LocalExecutor &operator=(const LocalExecutor &) = delete;
  ~LocalExecutor();

  /// Listen on a fresh Unix socket (unix:PATH, mode 0600, under
  /// $XDG_RUNTIME_DIR, else $TMPDIR, else /tmp) instead of a loopback port:
  /// clients then hand buffers over in shared memory. The studio's local
  /// executor does; tests choose.
  void useUnixSocket(bool on) { unixSocket = on; }

  /// Starts `serverPath --bind 127.0.0.1:0 extraArgs...` (or --bind
  /// unix:PATH) in its own process group, its log going to `logPath` (empty:
  /// inherited stderr), and waits for its `listening on` line.
  llvm::Error start(const std::string &serverPath,
                    const std::vector<std::string> &extraArgs = {},
                    const std::string &logPath = "",
                    std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// SIGTERM, then SIGKILL after a grace period. Idempotent.
  void stop();
  /// SIGKILL to the listener and every session.
  void kill();

  bool running() const;
  const std::string &address() const { return listening; }
  pid_t processId() const;
  /// The pids of the session processes.
  std::vector<pid_t> sessionProcesses() const;

  /// executor-server beside `argv0`'s binary, else in the build tree.
  static std::string defaultServerPath(const char *argv0 = nullptr);

private:
  /// The server (Subprocess.h, in the executor_studio support library).
  std::unique_ptr<executor_studio::Subprocess> process;
  std::string listening;
  bool unixSocket = false;
  std::string socketPath; // removed when the server is stopped or killed
};

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_LOCALEXECUTOR_H
