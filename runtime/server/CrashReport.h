//===- CrashReport.h - a crashing kernel's last words -----------*- C++ -*-===//
//
// A kernel that crashes takes its session process with it. Before it goes,
// the session tells the client which kernel crashed and with which signal
// (an ORC Hangup carrying that error, which any ORC client accepts and
// ExecutorClient reports) and logs the same line; then the signal takes its
// default course, so the listener still sees the session end by it.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_CRASHREPORT_H
#define EXECUTORSERVER_CRASHREPORT_H

#include <cstdint>
#include <string>

namespace executor_studio::runtime {
class StreamTransport;

/// In a session process: reports fatal signals (SIGSEGV, SIGBUS, SIGFPE,
/// SIGILL, SIGABRT, SIGTRAP) over the transport `*transport` holds when
/// one comes. Before the transport reads its first message: a request it
/// reads can start a kernel at once (a kernel that crashed while this was
/// still being prepared died without a report; once in 40 runs).
/// StreamTransport::Create fills the variable before the transport reads.
void installCrashReports(StreamTransport *const *transport);
/// Walks the unwinder once from here (outside any signal handler), so that
/// unwind tables registered since are sorted now: the crash report's walk
/// then allocates nothing. After each registration of a kernel's tables.
void prepareUnwinder();
/// Before `transport` goes: hangups (crash reports, endSession*) no longer
/// use it; one already under way ends the process first.
void stopCrashReports();
/// Ends the session now: tells the client `message` (an ORC Hangup with
/// that error), logs it and exits the session process.
[[noreturn]] void endSessionWithError(const std::string &message);
/// Ends the session because its server stops: the client hears
/// kShuttingDownMessage (Wire.h).
[[noreturn]] void endSessionShuttingDown();
/// Ends the session process now with `status`, its transport in use (what
/// endSession* do after their hangup): the transport's threads are
/// detached, as the process ends with them.
[[noreturn]] void exitSession(int status);

/// Gives the calling thread an alternate signal stack while it lives, so a
/// kernel that overflows its stack is reported too. Every thread that runs
/// kernels makes one first.
class KernelThreadStack {
public:
  KernelThreadStack();
  ~KernelThreadStack();
  KernelThreadStack(const KernelThreadStack &) = delete;
  KernelThreadStack &operator=(const KernelThreadStack &) = delete;

private:
  void *memory = nullptr;
};

/// "pid PID; attach a debugger with: gdb -p PID" (kernels compiled with -g
/// show their .mlir lines there).
std::string debuggerHint(long pid);
/// The session process's PID as the host sees it (what gdb -p takes): in a
/// PID namespace of its own the session is PID 1 there, so the host's PID
/// is kept here (setSessionHostPid) before /proc becomes the namespace's.
/// getpid() when none was set.
long sessionHostPid();
/// Also `statusFd`, the host's /proc/PID/status of the session opened
/// before, which names a debugger attached from the host (the namespace's
/// /proc shows a tracer outside it as none); -1 for none.
void setSessionHostPid(long pid, int statusFd);
/// In a session that is the init of its PID namespace (which ignores the
/// signals it raises itself): a crash writes its signal to `*slot` (memory
/// shared with the keeper, which dies of it in its place) and exits.
void reportCrashSignalTo(volatile int *slot);
/// --debug-wait: the first RunningKernel of the session waits until a
/// debugger is attached to the session process.
void setDebugWait(bool wait);

/// The kernel that has run longest of those running now, and for how long
/// (in ms); false when none runs.
bool longestRunningKernel(std::string &name, int64_t &milliseconds);

/// Names the kernel this thread runs until the guard goes (with
/// --debug-wait, the first one of a session waits for a debugger first).
class RunningKernel {
public:
  explicit RunningKernel(const std::string &name);
  ~RunningKernel();
  RunningKernel(const RunningKernel &) = delete;
  RunningKernel &operator=(const RunningKernel &) = delete;

private:
  int slot = -1; // in the table longestRunningKernel reads
};
} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_CRASHREPORT_H
