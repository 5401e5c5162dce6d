//===- VirtualDisplay.cpp - a private Xvfb for headless frames ------------===//
#include "VirtualDisplay.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace executor_studio::gui {

bool VirtualDisplay::start(std::string &error, int width, int height) {
  if (pid > 0)
    return true;
  int fds[2];
  if (::pipe(fds) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  std::string fd = std::to_string(fds[1]);
  std::string screen = std::to_string(width) + "x" + std::to_string(height) + "x24";
  pid_t child = ::fork();
  if (child < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (child == 0) {
    ::close(fds[0]);
    ::setpgid(0, 0);
    int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", screen.c_str(),
             "-nolisten", "tcp", "-noreset", static_cast<char *>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  pid = child;
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
    int status = 0;
    bool exited = ::waitpid(pid, &status, WNOHANG) == pid;
    error = exited && WIFEXITED(status) && WEXITSTATUS(status) == 127
                ? "Xvfb is not installed (Debian package xvfb)"
                : "Xvfb did not start";
    stop();
    return false;
  }
  name = ":" + number;
  return true;
}

void VirtualDisplay::stop() {
  if (pid <= 0)
    return;
  ::kill(pid, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    if (::waitpid(pid, nullptr, WNOHANG) == pid) {
      pid = -1;
      name.clear();
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  pid = -1;
  name.clear();
}

} // namespace executor_studio::gui
