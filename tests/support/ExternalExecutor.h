//===- ExternalExecutor.h - executors that are not ours, for tests --------===//
//
// Starts LLVM's stock llvm-jitlink-executor (or Catalyst's catalyst-executor)
// on a free loopback port, for the interop tests of the client and the
// studio's model. Needs LLVM_JITLINK_EXECUTOR_PATH defined.
//
//===----------------------------------------------------------------------===//
#ifndef TESTS_SUPPORT_EXTERNALEXECUTOR_H
#define TESTS_SUPPORT_EXTERNALEXECUTOR_H

#include "ExecutorRuntime/Socket.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace executor_test {
using executor_runtime::bindLoopback;

/// `llvm-jitlink-executor listen=127.0.0.1:PORT` (it serves one session and
/// exits), or `catalyst-executor --bind 127.0.0.1:PORT`, on a free port.
class JitlinkExecutor {
public:
  ~JitlinkExecutor() { stop(); }
  explicit JitlinkExecutor(std::string jitlinkExecutor = LLVM_JITLINK_EXECUTOR_PATH)
      : jitlinkExecutor(std::move(jitlinkExecutor)) {}
  bool start(const std::string &catalystExecutor = "") {
    int fd = bindLoopback(/*listen=*/false, address);
    if (fd < 0)
      return false;
    ::close(fd);
    unsigned port = std::stoul(address.substr(address.rfind(':') + 1));
    pid = fork();
    if (pid == 0) {
      setpgid(0, 0); // catalyst-executor forks listeners: stop them all
      if (!catalystExecutor.empty())
        execl(catalystExecutor.c_str(), catalystExecutor.c_str(), "--bind",
              address.c_str(), static_cast<char *>(nullptr));
      std::string arg = "listen=" + address;
      execl(jitlinkExecutor.c_str(), jitlinkExecutor.c_str(), arg.c_str(),
            static_cast<char *>(nullptr));
      _exit(127);
    }
    // Connecting would take its one session: watch for the listening socket.
    char needle[64];
    std::snprintf(needle, sizeof(needle), ":%04X 00000000:0000 0A", port);
    for (int i = 0; i < 500; ++i) {
      std::ifstream tcp("/proc/net/tcp");
      std::stringstream text;
      text << tcp.rdbuf();
      if (text.str().find(needle) != std::string::npos)
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  void stop() {
    if (pid <= 0)
      return;
    kill(-pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    pid = -1;
  }
  std::string address;
  pid_t pid = -1;

private:
  std::string jitlinkExecutor;
};

} // namespace executor_test

#endif // TESTS_SUPPORT_EXTERNALEXECUTOR_H
