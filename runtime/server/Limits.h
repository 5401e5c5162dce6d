//===- Limits.h - what one session may consume ------------------*- C++ -*-===//
#ifndef EXECUTORSERVER_LIMITS_H
#define EXECUTORSERVER_LIMITS_H

#include <chrono>
#include <cstdint>
#include <functional>
#include <pthread.h>
#include <string>

namespace executor_studio::runtime {

/// executor-server's limits; the defaults are the flags' defaults.
struct SessionLimits {
  /// From accept to the client's first ORC call (TLS and token included).
  std::chrono::milliseconds handshakeTimeout{10000};
  /// Sessions at once; the next connection is refused.
  unsigned maxSessions = 64;
  /// Connections that have not authenticated yet (TLS, the token): at once,
  /// from one address, and how long each may take. They cost a descriptor
  /// and a few hundred bytes each (no process), so thousands may wait; when
  /// a budget is full the oldest that has proved nothing makes room for the
  /// new one (issue 40: on loopback every user shares one address, and a
  /// budget that refused the newcomer let a flood lock everyone out).
  unsigned maxPending = 4096;
  unsigned maxPendingPerAddress = 2048;
  std::chrono::milliseconds authTimeout{3000};
  /// The largest message a session accepts.
  uint64_t maxMessageSize = uint64_t(1) << 30;
  /// Private writable memory of a session (RLIMIT_DATA), and with
  /// headroom its address space (RLIMIT_AS), which counts shared memory;
  /// 0: no limit.
  uint64_t sessionMemory = uint64_t(16) << 30;
  /// Processes and threads of a session (RLIMIT_NPROC in its own user
  /// namespace).
  unsigned sessionProcesses = 1024;
  /// How long one kernel may run; 0: no limit.
  std::chrono::milliseconds launchTime{std::chrono::hours(1)};
  /// SIGTERM to the sessions, then SIGKILL after this.
  std::chrono::milliseconds stopGrace{5000};
  /// A client that stops answering is gone after about this long.
  std::chrono::seconds liveness{60};
  /// After a wrong token, the same peer waits this long.
  std::chrono::milliseconds authFailureDelay{1000};
};

/// "64", "512K", "16M", "8G" (powers of 1024) -> bytes; false if malformed.
bool parseSize(const std::string &text, uint64_t &bytes);
/// "10", "2.5", "500ms" -> a duration (plain numbers are seconds).
bool parseDuration(const std::string &text, std::chrono::milliseconds &value);
/// A duration as the log and the messages say it ("0.5 s", "3600 s").
std::string formatDuration(std::chrono::milliseconds value);
/// "16 GiB", "1.5 MiB", "100 bytes".
std::string describeSize(uint64_t bytes);

/// In a session process: caps its private writable memory (RLIMIT_DATA:
/// heap, JIT-linked code and data, thread stacks; not address space that is
/// only reserved). Returns "" or the problem.
std::string limitSessionMemory(uint64_t bytes);

/// In a session: caps its address space (RLIMIT_AS) at what it has mapped
/// now plus `bytes` plus kAddressSpaceHeadroom (threads' stacks, the JIT),
/// which counts what RLIMIT_DATA does not: MAP_SHARED mappings. Not in a
/// sanitizer build (its shadow memory). "" or the problem.
std::string limitSessionAddressSpace(uint64_t bytes);
constexpr uint64_t kAddressSpaceHeadroom = uint64_t(1) << 30;

/// In a session: no file it writes grows past `bytes` (RLIMIT_FSIZE; a
/// write past it fails with EFBIG). "" or the problem.
std::string limitSessionFileSize(uint64_t bytes);

/// In a session in a user namespace of its own: at most `count` processes
/// and threads (RLIMIT_NPROC counts per user in each user namespace, so
/// per session), never above the hard limit it has. "" or the problem.
std::string limitSessionProcesses(unsigned count);

/// Starts a thread, detached unless `joinable` is given (then it holds the
/// thread to join); false with `error` when the system has none to give (an
/// nproc limit), where std::thread would abort the process.
bool startThread(std::function<void()> body, std::string &error,
                 pthread_t *joinable = nullptr);

/// In a session process: a thread that ends the session when no ORC call
/// has come by `deadline` (markSessionStarted), and when a kernel runs
/// longer than `limits.launchTime`. False (with `error`) when it cannot
/// start.
bool startSessionWatchdog(const SessionLimits &limits,
                          std::chrono::steady_clock::time_point deadline,
                          std::string &error);
/// Stops the watchdog and joins it: called before the session's transport
/// goes, which the watchdog's hangups (endSessionShuttingDown,
/// endSessionWithError) send on.
void stopSessionWatchdog();
/// The client's first ORC call has come: the handshake is over.
void markSessionStarted();

/// SIGTERM in a session (async-signal-safe): the watchdog lets the running
/// calls and kernels finish (the listener's --stop-grace bounds them), then
/// ends the session with kShuttingDownMessage; new launches are refused
/// with it meanwhile (sessionStopping()).
void requestSessionStop();
bool sessionStopping();
/// A call the session serves, from its request until its reply is sent.
struct CallInFlight {
  CallInFlight();
  ~CallInFlight();
};

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_LIMITS_H
