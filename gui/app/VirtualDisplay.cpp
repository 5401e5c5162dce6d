//===- VirtualDisplay.cpp - a private Xvfb for headless frames ------------===//
#include "VirtualDisplay.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <unistd.h>

namespace executor_studio::gui {

bool VirtualDisplay::start(std::string &error, int width, int height) {
  if (xvfb.running())
    return true;
  // Xvfb writes its display number to the pipe's write end, which it
  // inherits (the read end does not).
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0 || ::fcntl(fds[1], F_SETFD, 0) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  std::string screen = std::to_string(width) + "x" + std::to_string(height) + "x24";
  SubprocessOptions options;
  options.out = options.err = Redirect::null();
  options.newProcessGroup = true;
  options.searchPath = true;
  llvm::Error started =
      xvfb.start({"Xvfb", "-displayfd", std::to_string(fds[1]), "-screen", "0", screen,
                  "-nolisten", "tcp", "-noreset"},
                 options);
  ::close(fds[1]);
  if (started) {
    llvm::consumeError(std::move(started));
    ::close(fds[0]);
    error = "Xvfb is not installed (Debian package xvfb)";
    return false;
  }
  // Xvfb writes the display number once it accepts clients.
  std::string number;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (number.find('\n') == std::string::npos) {
    int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    deadline - std::chrono::steady_clock::now())
                                    .count());
    pollfd p{fds[0], POLLIN, 0};
    if (left <= 0 || ::poll(&p, 1, left) <= 0)
      break;
    char buffer[32];
    ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
    if (n <= 0)
      break;
    number.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  while (!number.empty() && (number.back() == '\n' || number.back() == ' '))
    number.pop_back();
  if (number.empty()) {
    bool exited = xvfb.poll();
    error = exited && xvfb.exitCode() == 127 ? "Xvfb is not installed (Debian package xvfb)"
                                               : "Xvfb did not start";
    stop();
    return false;
  }
  name = ":" + number;
  return true;
}

void VirtualDisplay::stop() {
  xvfb.terminate(std::chrono::seconds(2));
  name.clear();
}

} // namespace executor_studio::gui
