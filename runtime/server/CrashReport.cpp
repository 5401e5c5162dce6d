//===- CrashReport.cpp - a crashing kernel's last words -------------------===//
#include "CrashReport.h"
#include "LaunchService.h"
#include "ExecutorRuntime/TcpTransport.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace executor_runtime {

namespace {
std::atomic<TcpTransport *> reportTo{nullptr};
/// The kernel each thread runs ("" outside kernels). Fixed-size, so the
/// signal handler reads it without allocating.
thread_local char runningKernel[256];

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE,
                                 SIGILL,  SIGABRT, SIGTRAP};

/// Appends `text` to `buffer` (of `size` bytes, `at` used), cutting it short.
void append(char *buffer, size_t size, size_t &at, const char *text) {
  size_t n = std::strlen(text);
  if (n > size - 1 - at)
    n = size - 1 - at;
  std::memcpy(buffer + at, text, n);
  at += n;
  buffer[at] = 0;
}

void appendNumber(char *buffer, size_t size, size_t &at, int value) {
  char digits[16];
  int n = 0;
  unsigned v = value < 0 ? 0u : static_cast<unsigned>(value);
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v && n < 15);
  char text[16];
  for (int i = 0; i < n; ++i)
    text[i] = digits[n - 1 - i];
  text[n] = 0;
  append(buffer, size, at, text);
}

void onFatalSignal(int sig) {
  char message[512];
  size_t at = 0;
  message[0] = 0;
  if (runningKernel[0]) {
    append(message, sizeof(message), at, "kernel ");
    append(message, sizeof(message), at, runningKernel);
    append(message, sizeof(message), at, " crashed");
  } else {
    append(message, sizeof(message), at, "the session crashed outside a kernel");
  }
  append(message, sizeof(message), at, " with signal ");
  appendNumber(message, sizeof(message), at, sig);
  append(message, sizeof(message), at, " (");
  const char *description = sigdescr_np(sig);
  append(message, sizeof(message), at, description ? description : "?");
  append(message, sizeof(message), at, ")");
  if (TcpTransport *transport = reportTo.load())
    transport->sendHangupFromSignalHandler(message, at);
  char line[700];
  size_t n = 0;
  line[0] = 0;
  append(line, sizeof(line), n, "executor-server: ");
  append(line, sizeof(line), n, sessionLabel.c_str());
  append(line, sizeof(line), n, ": ");
  append(line, sizeof(line), n, message);
  append(line, sizeof(line), n, "\n");
  (void)!write(STDERR_FILENO, line, n);
  // The default action, so the listener sees the session end by `sig`.
  signal(sig, SIG_DFL);
  raise(sig);
}
} // namespace

void installCrashReports(TcpTransport *transport) {
  reportTo = transport;
  struct sigaction sa{};
  sa.sa_handler = onFatalSignal;
  sa.sa_flags = SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : kFatalSignals)
    sigaction(sig, &sa, nullptr);
}

void endSessionWithError(const std::string &message) {
  logEvent("error: " + message + "; ending the session");
  if (TcpTransport *transport = reportTo.load())
    transport->sendHangupFromSignalHandler(message.data(), message.size());
  std::fflush(nullptr);
  _exit(4);
}

KernelThreadStack::KernelThreadStack() {
  stack_t stack{};
  stack.ss_size = 64 * 1024;
  memory = stack.ss_sp = std::malloc(stack.ss_size);
  if (memory && sigaltstack(&stack, nullptr) != 0) {
    std::free(memory);
    memory = nullptr;
  }
}

KernelThreadStack::~KernelThreadStack() {
  if (!memory)
    return;
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  sigaltstack(&off, nullptr);
  std::free(memory);
}

RunningKernel::RunningKernel(const std::string &name) {
  size_t n = std::min(name.size(), sizeof(runningKernel) - 1);
  std::memcpy(runningKernel, name.data(), n);
  runningKernel[n] = 0;
}

RunningKernel::~RunningKernel() { runningKernel[0] = 0; }

} // namespace executor_runtime
