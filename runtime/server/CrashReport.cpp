//===- CrashReport.cpp - a crashing kernel's last words -------------------===//
#include "CrashReport.h"
#include "LaunchService.h"
#include "Limits.h"
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/Wire.h"
#include "LogText.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <mutex>
#include <execinfo.h>
#include <link.h>
#include <ucontext.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

namespace executor_studio::runtime {

namespace {
/// The session's variable for its transport (installCrashReports).
std::atomic<StreamTransport *const *> reportVia{nullptr};
StreamTransport *reportTo() {
  StreamTransport *const *slot = reportVia.load();
  return slot ? *slot : nullptr;
}
std::atomic<volatile int *> crashSignalSlot{nullptr};
long hostPid = 0;
int hostStatusFd = -1;

/// Every running kernel: since when (steady clock, ns; 0: free slot).
/// A slot is reserved with a compare-and-swap of `since`; its name is
/// written and read under kernelSlotsMutex (a slot freed and taken again by
/// another kernel while the watchdog read its name gave it a torn name:
/// found by TSan).
struct KernelSlot {
  std::atomic<int64_t> since{0};
  char name[256];
};
constexpr int kKernelSlots = 256;
KernelSlot kernelSlots[kKernelSlots];
std::mutex kernelSlotsMutex;
int64_t steadyNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}
/// Hangups begun: each ends the process after it, so this only grows. The
/// transport outlives any that began (stopCrashReports waits for them).
std::atomic<int> hangupsBegun{0};
void sendHangup(const char *message, size_t size) {
  ++hangupsBegun;
  if (StreamTransport *transport = reportTo())
    transport->sendHangupBeforeExit(message, size);
}
/// The crash report's sender, a thread of its own: the signal handler
/// never writes to the transport itself, which takes its lock and, over
/// TLS, OpenSSL's (SSL_write_ex allocates and locks: a kernel that crashed
/// inside malloc, or inside a send, would hang there; found by TSan; none
/// of it is async-signal-safe, issue 41). The handler leaves the report in
/// `crashReport`, wakes the sender (sem_post, async-signal-safe) and waits
/// (nanosleep; at most 4 s: the send takes at most 2 s for the lock and 1 s
/// to write) until it is sent.
sem_t reporterWake;
pthread_t reporterThread;
std::atomic<bool> reporterRunning{false}, reporterQuit{false};
std::atomic<bool> crashReportClaimed{false}, crashReportSent{false};
char crashReport[kMaxCrashReportSize];
size_t crashReportSize = 0;

void runReporter() {
  while (true) {
    if (sem_wait(&reporterWake) != 0)
      continue; // EINTR
    if (reporterQuit.load())
      return;
    if (StreamTransport *transport = reportTo())
      transport->sendHangupBeforeExit(crashReport, crashReportSize);
    crashReportSent.store(true);
  }
}

void startReporter() {
  if (sem_init(&reporterWake, 0, 0) != 0)
    return;
  std::string error;
  if (startThread(runReporter, error, &reporterThread))
    reporterRunning = true;
  else // the handler sends nothing then: a crash is only logged
    logEvent("warning: crashes will be logged but not reported to the "
             "client: " + error);
}

void stopReporter() {
  if (!reporterRunning.exchange(false))
    return;
  reporterQuit.store(true);
  sem_post(&reporterWake);
  pthread_join(reporterThread, nullptr);
}

/// From the signal handler: the report goes out through the sender (only
/// async-signal-safe steps here).
void sendCrashReport(const char *message, size_t size) {
  if (!reporterRunning.load())
    return;
  ++hangupsBegun;
  // Two threads crashing at once: the first one's report goes.
  if (crashReportClaimed.exchange(true))
    return;
  crashReportSize = std::min(size, sizeof(crashReport));
  std::memcpy(crashReport, message, crashReportSize);
  sem_post(&reporterWake);
  for (int waited = 0; waited < 400 && !crashReportSent.load(); ++waited) {
    timespec step{0, 10 * 1000 * 1000};
    nanosleep(&step, nullptr);
  }
}

/// The kernel each thread runs ("" outside kernels). Fixed-size, so the
/// signal handler reads it without allocating.
thread_local char runningKernel[256];

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE,
                                 SIGILL,  SIGABRT, SIGTRAP};

/// The executable segments of the libraries (and the program) this process
/// has loaded, taken before any crash: the handler names the library of a
/// frame from it without calling anything that is not signal-safe. Frames
/// in none of them are JIT-linked code (kernels), which the client
/// symbolizes against the objects it linked.
struct LoadedCode {
  uintptr_t start, end, base;
  char path[240];
};
constexpr int kMaxLoadedCode = 96;
LoadedCode loadedCode[kMaxLoadedCode];
int loadedCodeCount = 0;

void recordLoadedCode() {
  loadedCodeCount = 0;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *) -> int {
        char path[sizeof(LoadedCode::path)];
        const char *name = info->dlpi_name;
        if (!name || !*name) {
          // The program itself.
          ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
          if (n <= 0)
            return 0;
          path[n] = 0;
          name = path;
        }
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_X))
            continue;
          if (loadedCodeCount == kMaxLoadedCode)
            return 1;
          LoadedCode &code = loadedCode[loadedCodeCount++];
          code.base = info->dlpi_addr;
          code.start = info->dlpi_addr + segment.p_vaddr;
          code.end = code.start + segment.p_memsz;
          std::snprintf(code.path, sizeof(code.path), "%s", name);
        }
        return 0;
      },
      nullptr);
}

/// Where the signal interrupted the thread.
uintptr_t interruptedAt(void *context) {
  auto *uc = static_cast<ucontext_t *>(context);
  if (!uc)
    return 0;
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.pc);
#else
  return 0;
#endif
}

/// At most this many frames go into a report.
constexpr int kMaxReportedFrames = 32;

/// Appends `text` to `buffer` (of `size` bytes, `at` used), cutting it short.
void append(char *buffer, size_t size, size_t &at, const char *text) {
  size_t n = std::strlen(text);
  if (n > size - 1 - at)
    n = size - 1 - at;
  std::memcpy(buffer + at, text, n);
  at += n;
  buffer[at] = 0;
}

void appendHex(char *buffer, size_t size, size_t &at, uintptr_t value) {
  char text[2 + 2 * sizeof(value) + 1];
  char digits[2 * sizeof(value)];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[value & 15];
    value >>= 4;
  } while (value);
  text[0] = '0';
  text[1] = 'x';
  for (int i = 0; i < n; ++i)
    text[2 + i] = digits[n - 1 - i];
  text[2 + n] = 0;
  append(buffer, size, at, text);
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

/// Appends the backtrace of the interrupted thread to `message`, one line
/// a frame: "\n#N 0xADDRESS", and " in PATH+0xOFFSET" for a frame in a
/// loaded library (or the program). Only signal-safe steps: the addresses
/// come from the unwinder (its library loaded before any crash, the
/// kernels' unwind tables registered when they were linked) and the
/// interrupted context; naming them is left to the client.
void appendBacktrace(char *message, size_t size, size_t &at, void *context) {
  uintptr_t pc = interruptedAt(context);
  void *trace[64];
  int depth = backtrace(trace, 64);
  uintptr_t frames[kMaxReportedFrames];
  int count = 0;
  if (pc)
    frames[count++] = pc;
  // The unwinder starts in this handler: the frames that count follow the
  // interrupted instruction.
  int from = depth;
  for (int i = 0; i < depth; ++i)
    if (reinterpret_cast<uintptr_t>(trace[i]) == pc) {
      from = i + 1;
      break;
    }
  for (int i = from; i < depth && count < kMaxReportedFrames; ++i)
    frames[count++] = reinterpret_cast<uintptr_t>(trace[i]);
  for (int i = 0; i < count; ++i) {
    append(message, size, at, "\n#");
    appendNumber(message, size, at, i);
    append(message, size, at, " ");
    appendHex(message, size, at, frames[i]);
    for (int m = 0; m < loadedCodeCount; ++m) {
      const LoadedCode &code = loadedCode[m];
      if (frames[i] < code.start || frames[i] >= code.end)
        continue;
      append(message, size, at, " in ");
      append(message, size, at, code.path);
      append(message, size, at, "+");
      appendHex(message, size, at, frames[i] - code.base);
      break;
    }
  }
}

void onFatalSignal(int sig, siginfo_t *, void *context) {
  char message[kMaxCrashReportSize];
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
  size_t firstLine = at;
  appendBacktrace(message, sizeof(message), at, context);
  sendCrashReport(message, at);
  // The log: the report's first line, then a line a frame, each under the
  // session's prefix.
  char line[700];
  for (size_t start = 0; start < at;) {
    size_t end = start == 0 ? firstLine : start;
    while (end < at && message[end] != '\n')
      ++end;
    size_t n = 0;
    line[0] = 0;
    append(line, sizeof(line), n, "executor-server: ");
    append(line, sizeof(line), n, sessionLabel.c_str());
    append(line, sizeof(line), n, start == 0 ? ": " : ":   ");
    size_t length = std::min(end - start, sizeof(line) - 2 - n);
    std::memcpy(line + n, message + start, length);
    n += length;
    line[n++] = '\n';
    (void)!write(logDescriptor, line, n);
    start = end + 1;
  }
  // The default action, so the listener sees the session end by `sig`. A
  // PID namespace's init ignores the signals it raises: its keeper dies of
  // the signal in its place.
  if (volatile int *slot = crashSignalSlot.load()) {
    *slot = sig;
    _exit(128 + sig);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}
} // namespace

void installCrashReports(StreamTransport *const *transport) {
  reportVia = transport;
  // What the handler needs later, prepared now: the libraries' code, and
  // the unwinder (loaded on first use).
  recordLoadedCode();
  prepareUnwinder();
  startReporter();
  struct sigaction sa{};
  sa.sa_sigaction = onFatalSignal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : kFatalSignals)
    sigaction(sig, &sa, nullptr);
}

void prepareUnwinder() {
  // The first backtrace loads libgcc_s (dlopen: malloc); each lookup of an
  // address in none of the sorted tables sorts every table registered since
  // the last (malloc again). This thread's frames are in none of the
  // kernels' tables.
  void *frames[64];
  (void)backtrace(frames, 64);
}

void stopCrashReports() {
  reportVia.store(nullptr);
  // A hangup that began before (a crash on a kernel thread, the watchdog)
  // still sends on the transport, and then ends the process: wait for that
  // (its sends take at most 2 s for the lock and 1 s to write) instead of
  // freeing the transport under it.
  for (int waited = 0; hangupsBegun.load() != 0; ++waited) {
    if (waited == 200) // 10 s
      _exit(4);
    usleep(50 * 1000);
  }
  stopReporter();
}

void exitSession(int status) {
  ++hangupsBegun; // the transport stays until the process ends
  if (StreamTransport *transport = reportTo())
    transport->detachThreadsAtExit();
  std::fflush(nullptr);
  _exit(status);
}

void endSessionWithError(const std::string &message) {
  logEvent("error: " + message + "; ending the session");
  sendHangup(message.data(), message.size());
  exitSession(4);
}

void endSessionShuttingDown() {
  logEvent("stopped: the server is shutting down");
  sendHangup(kShuttingDownMessage, std::strlen(kShuttingDownMessage));
  exitSession(0);
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

long sessionHostPid() { return hostPid ? hostPid : static_cast<long>(getpid()); }

void setSessionHostPid(long pid, int statusFd) {
  hostPid = pid;
  hostStatusFd = statusFd;
}

void reportCrashSignalTo(volatile int *slot) { crashSignalSlot = slot; }

namespace {
std::atomic<bool> debugWaitPending{false};

/// Whether a debugger (any tracer) is attached to this process.
bool debuggerAttached() {
  char text[4096];
  ssize_t n = -1;
  if (hostStatusFd >= 0) {
    n = pread(hostStatusFd, text, sizeof(text) - 1, 0);
  } else if (int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
             fd >= 0) {
    n = read(fd, text, sizeof(text) - 1);
    close(fd);
  }
  if (n <= 0)
    return false;
  text[n] = 0;
  const char *line = std::strstr(text, "TracerPid:");
  return line && std::strtol(line + std::strlen("TracerPid:"), nullptr, 10) != 0;
}

/// --debug-wait: waits (at most 10 minutes; --max-launch-time ends it
/// sooner) until a debugger attaches.
void waitForDebugger(const std::string &kernel) {
  bool expected = true;
  if (!debugWaitPending.compare_exchange_strong(expected, false))
    return;
  logEvent("waiting for a debugger before launching " + escapeLogText(kernel) +
           ": " + debuggerHint(sessionHostPid()));
  for (int waited = 0; waited < 600 * 20 && !debuggerAttached(); ++waited)
    usleep(50 * 1000);
  bool attached = debuggerAttached();
  // The tracer shows on the process as soon as gdb has attached to its
  // first thread; this thread may still run until gdb has attached to it
  // and set its breakpoints (a few milliseconds, longer on a loaded
  // machine): give it a second before the kernel runs.
  if (attached)
    usleep(1000 * 1000);
  logEvent(attached ? "a debugger is attached" : "no debugger came; launching");
}
} // namespace

std::string debuggerHint(long pid) {
  return "pid " + std::to_string(pid) +
         "; attach a debugger with: gdb -p " + std::to_string(pid);
}

void setDebugWait(bool wait) { debugWaitPending = wait; }

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
      std::lock_guard<std::mutex> lock(kernelSlotsMutex);
      std::memcpy(kernelSlots[i].name, runningKernel, n + 1);
      kernelSlots[i].since = steadyNanoseconds();
      slot = i;
      break;
    }
  }
  if (debugWaitPending)
    waitForDebugger(name);
}

RunningKernel::~RunningKernel() {
  runningKernel[0] = 0;
  if (slot >= 0) {
    std::lock_guard<std::mutex> lock(kernelSlotsMutex);
    kernelSlots[slot].since = 0;
  }
}

bool longestRunningKernel(std::string &name, int64_t &milliseconds) {
  int64_t now = steadyNanoseconds(), oldest = 0;
  std::lock_guard<std::mutex> lock(kernelSlotsMutex);
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

} // namespace executor_studio::runtime
