//===- CrashReport.cpp - a crashing kernel's last words -------------------===//
#include "CrashReport.h"
#include "LaunchService.h"
#include "ExecutorRuntime/TcpTransport.h"
#include "ExecutorRuntime/Wire.h"
#include "LogText.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <time.h>
#include <unistd.h>

namespace executor_runtime {

namespace {
std::atomic<TcpTransport *> reportTo{nullptr};

/// Every running kernel: since when (steady clock, ns; 0: free slot).
struct KernelSlot {
  std::atomic<int64_t> since{0};
  char name[256];
};
constexpr int kKernelSlots = 256;
KernelSlot kernelSlots[kKernelSlots];
int64_t steadyNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}
void sendHangup(const char *message, size_t size) {
  if (TcpTransport *transport = reportTo.load())
    transport->sendHangupFromSignalHandler(message, size);
}
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
  sendHangup(message, at);
  char line[700];
  size_t n = 0;
  line[0] = 0;
  append(line, sizeof(line), n, "executor-server: ");
  append(line, sizeof(line), n, sessionLabel.c_str());
  append(line, sizeof(line), n, ": ");
  append(line, sizeof(line), n, message);
  append(line, sizeof(line), n, "\n");
  (void)!write(logDescriptor, line, n);
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
  sendHangup(message.data(), message.size());
  std::fflush(nullptr);
  _exit(4);
}

void endSessionShuttingDown() {
  logEvent("stopped: the server is shutting down");
  sendHangup(kShuttingDownMessage, std::strlen(kShuttingDownMessage));
  std::fflush(nullptr);
  _exit(0);
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
  // The name is the client's text: escaped, as everything in the log.
  std::string shown = escapeLogText(name);
  size_t n = std::min(shown.size(), sizeof(runningKernel) - 1);
  std::memcpy(runningKernel, shown.data(), n);
  runningKernel[n] = 0;
  for (int i = 0; i < kKernelSlots; ++i) {
    int64_t expected = 0;
    // -1 reserves the slot while its name is written.
    if (kernelSlots[i].since.compare_exchange_strong(expected, -1)) {
      std::memcpy(kernelSlots[i].name, runningKernel, n + 1);
      kernelSlots[i].since = steadyNanoseconds();
      slot = i;
      break;
    }
  }
}

RunningKernel::~RunningKernel() {
  runningKernel[0] = 0;
  if (slot >= 0)
    kernelSlots[slot].since = 0;
}

bool longestRunningKernel(std::string &name, int64_t &milliseconds) {
  int64_t now = steadyNanoseconds(), oldest = 0;
  for (KernelSlot &s : kernelSlots) {
    int64_t since = s.since.load();
    if (since > 0 && (!oldest || since < oldest)) {
      oldest = since;
      name = s.name;
    }
  }
  if (!oldest)
    return false;
  milliseconds = (now - oldest) / 1000000;
  return true;
}

} // namespace executor_runtime
