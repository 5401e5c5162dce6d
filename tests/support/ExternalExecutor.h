//===- ExternalExecutor.h - executors that are not ours, for tests --------===//
//
// Starts LLVM's stock llvm-jitlink-executor (or Catalyst's catalyst-executor)
// on a free loopback port, for the interop tests of the client, the studio's
// model and the runtime bench. Needs LLVM_JITLINK_EXECUTOR_PATH defined.
//
// llvm-jitlink-executor never races for its port: this process listens on
// it from the start, and a child takes the one connection the client makes
// and runs the executor on it (filedescs=0,1, as ExecutorClient::spawn
// does), so no other socket can take the port in between (picking a port
// for the executor to bind failed under many TIME_WAIT sockets: "Error on
// binding").
//
//===----------------------------------------------------------------------===//
#ifndef TESTS_SUPPORT_EXTERNALEXECUTOR_H
#define TESTS_SUPPORT_EXTERNALEXECUTOR_H

#include "ExecutorRuntime/Socket.h"
#include "ExecutorStudio/Support/Subprocess.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace executor_test {
using executor_studio::runtime::bindLoopback;

/// `llvm-jitlink-executor listen=127.0.0.1:PORT` (it serves one session and
/// exits), or `catalyst-executor --bind 127.0.0.1:PORT`, on a free port.
class JitlinkExecutor {
public:
  ~JitlinkExecutor() { stop(); }
  explicit JitlinkExecutor(std::string jitlinkExecutor = LLVM_JITLINK_EXECUTOR_PATH)
      : jitlinkExecutor(std::move(jitlinkExecutor)) {}
  /// Starts it on a free port: llvm-jitlink-executor on this process's
  /// listening socket (no race). catalyst-executor binds the port itself
  /// (it takes no socket), so another socket can take it first: then it
  /// starts again on another port, up to 20 times.
  bool start(const std::string &catalystExecutor = "") {
    if (catalystExecutor.empty())
      return startOnOurSocket();
    for (int attempt = 0; attempt < 20; ++attempt) {
      int outcome = startOnce(catalystExecutor);
      if (outcome >= 0)
        return outcome == 1;
    }
    return false;
  }
  void stop() {
    process.kill();
    if (child > 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
      child = -1;
    }
  }
  std::string address;

private:
  bool startOnOurSocket() {
    int listener = bindLoopback(/*listen=*/true, address);
    if (listener < 0)
      return false;
    // Everything the child needs, made before fork (the parent has
    // threads: the child only accepts, moves the connection and execs).
    std::string descriptors = "filedescs=0,1";
    char *argv[] = {jitlinkExecutor.data(), descriptors.data(), nullptr};
    child = ::fork();
    if (child == 0) {
      int connection = ::accept(listener, nullptr, nullptr);
      if (connection < 0 || ::dup2(connection, 0) < 0 ||
          ::dup2(connection, 1) < 0)
        _exit(127);
      ::execv(argv[0], argv);
      _exit(127);
    }
    ::close(listener);
    return child > 0;
  }
  /// 1: listening; 0: not within 5 s; -1: it exited first (the port was
  /// taken): try another.
  int startOnce(const std::string &catalystExecutor) {
    int fd = bindLoopback(/*listen=*/false, address);
    if (fd < 0)
      return 0;
    ::close(fd);
    unsigned port = std::stoul(address.substr(address.rfind(':') + 1));
    // catalyst-executor forks listeners: its own group stops them all.
    executor_studio::SubprocessOptions options;
    options.in = executor_studio::Redirect::inherit();
    options.newProcessGroup = true;
    std::vector<std::string> args =
        catalystExecutor.empty()
            ? std::vector<std::string>{jitlinkExecutor, "listen=" + address}
            : std::vector<std::string>{catalystExecutor, "--bind", address};
    if (llvm::Error error = process.start(args, options)) {
      llvm::consumeError(std::move(error));
      return 0;
    }
    // Connecting would take its one session: watch for the listening socket.
    char needle[64];
    std::snprintf(needle, sizeof(needle), ":%04X 00000000:0000 0A", port);
    for (int i = 0; i < 500; ++i) {
      std::ifstream tcp("/proc/net/tcp");
      std::stringstream text;
      text << tcp.rdbuf();
      if (text.str().find(needle) != std::string::npos)
        return 1;
      if (process.poll())
        return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return 0;
  }
  std::string jitlinkExecutor;
  executor_studio::Subprocess process;
  /// llvm-jitlink-executor (startOnOurSocket), or -1.
  pid_t child = -1;
};

} // namespace executor_test

#endif // TESTS_SUPPORT_EXTERNALEXECUTOR_H
