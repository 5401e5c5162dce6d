//===- Limits.cpp - what one session may consume --------------------------===//
#include "Limits.h"
#include "CrashReport.h"
#include "LaunchService.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <memory>
#include <pthread.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace executor_studio::runtime {

bool parseSize(const std::string &text, uint64_t &bytes) {
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (errno || end == text.c_str() || text[0] == '-')
    return false;
  std::string unit(end);
  int shift = 0;
  if (unit.empty() || unit == "B")
    shift = 0;
  else if (unit == "K" || unit == "KiB")
    shift = 10;
  else if (unit == "M" || unit == "MiB")
    shift = 20;
  else if (unit == "G" || unit == "GiB")
    shift = 30;
  else if (unit == "T" || unit == "TiB")
    shift = 40;
  else
    return false;
  if (shift && value > (UINT64_MAX >> shift))
    return false;
  bytes = static_cast<uint64_t>(value) << shift;
  return true;
}

bool parseDuration(const std::string &text, std::chrono::milliseconds &value) {
  if (text.empty() || text[0] == '-')
    return false;
  char *end = nullptr;
  errno = 0;
  double number = std::strtod(text.c_str(), &end);
  if (errno || end == text.c_str() || number < 0 || number > 1e9)
    return false;
  std::string unit(end);
  if (unit.empty() || unit == "s")
    value = std::chrono::milliseconds(static_cast<int64_t>(number * 1000));
  else if (unit == "ms")
    value = std::chrono::milliseconds(static_cast<int64_t>(number));
  else
    return false;
  return true;
}

std::string describeSize(uint64_t bytes) {
  static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof(text), "%llu bytes",
                  static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof(text), "%.4g %s", value, units[unit]);
  return text;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define EXECUTOR_SANITIZER_SHADOW 1
#endif
#endif

#ifdef EXECUTOR_SANITIZER_SHADOW
/// The private writable memory mapped so far (VmData), in bytes.
static uint64_t mappedDataBytes() {
  std::FILE *status = std::fopen("/proc/self/status", "r");
  if (!status)
    return 0;
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof(line), status))
    if (std::sscanf(line, "VmData: %llu kB", &kib) == 1)
      break;
  std::fclose(status);
  return uint64_t(kib) << 10;
}
#endif

std::string limitSessionMemory(uint64_t bytes) {
  if (!bytes)
    return "";
#ifdef EXECUTOR_SANITIZER_SHADOW
  // A sanitizer build has reserved terabytes of shadow memory, which
  // RLIMIT_DATA counts: the session may map `bytes` beyond it.
  bytes += mappedDataBytes();
#endif
  rlimit limit{bytes, bytes};
  if (setrlimit(RLIMIT_DATA, &limit) != 0)
    return "cannot limit the session's memory to " + describeSize(bytes) +
           ": " + std::strerror(errno);
  return "";
}

std::string limitSessionAddressSpace(uint64_t bytes) {
  if (!bytes)
    return "";
#ifdef EXECUTOR_SANITIZER_SHADOW
  return "";
#else
  uint64_t mapped = 0;
  if (std::FILE *status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned long long kib = 0;
    while (std::fgets(line, sizeof(line), status))
      if (std::sscanf(line, "VmSize: %llu kB", &kib) == 1)
        break;
    std::fclose(status);
    mapped = uint64_t(kib) << 10;
  }
  uint64_t limit = mapped + kAddressSpaceHeadroom;
  limit = bytes > UINT64_MAX - limit ? RLIM_INFINITY : limit + bytes;
  rlimit current{};
  getrlimit(RLIMIT_AS, &current);
  if (current.rlim_max != RLIM_INFINITY && limit > current.rlim_max)
    limit = current.rlim_max;
  rlimit wanted{limit, limit};
  if (setrlimit(RLIMIT_AS, &wanted) != 0)
    return "cannot limit the session's address space to " +
           describeSize(limit) + ": " + std::strerror(errno);
  return "";
#endif
}

std::string limitSessionFileSize(uint64_t bytes) {
  if (!bytes)
    return "";
  // A write past it fails with EFBIG instead of killing the session.
  signal(SIGXFSZ, SIG_IGN);
  rlimit limit{bytes, bytes};
  if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
    return "cannot limit the session's files to " + describeSize(bytes) +
           ": " + std::strerror(errno);
  return "";
}

std::string limitSessionProcesses(unsigned count) {
  rlimit current{};
  getrlimit(RLIMIT_NPROC, &current);
  rlim_t limit = count;
  if (current.rlim_max != RLIM_INFINITY && limit > current.rlim_max)
    limit = current.rlim_max;
  rlimit wanted{limit, limit};
  if (setrlimit(RLIMIT_NPROC, &wanted) != 0)
    return "cannot limit the session to " + std::to_string(count) +
           " processes and threads: " + std::strerror(errno);
  return "";
}

bool startThread(std::function<void()> body, std::string &error,
                 pthread_t *joinable) {
  auto *work = new std::function<void()>(std::move(body));
  pthread_t thread;
  int rc = pthread_create(
      &thread, nullptr,
      [](void *arg) -> void * {
        std::unique_ptr<std::function<void()>> work(
            static_cast<std::function<void()> *>(arg));
        (*work)();
        return nullptr;
      },
      work);
  if (rc != 0) {
    delete work;
    error = std::string("cannot start a thread: ") + std::strerror(rc);
    return false;
  }
  if (joinable)
    *joinable = thread;
  else
    pthread_detach(thread);
  return true;
}

namespace {
std::atomic<bool> sessionStarted{false};
std::atomic<bool> stopRequested{false};
std::atomic<int> callsInFlight{0};
/// The session watchdog: joined by stopSessionWatchdog.
std::atomic<bool> watchdogStopping{false};
pthread_t watchdogThread;
bool watchdogRunning = false;
} // namespace

std::string formatDuration(std::chrono::milliseconds value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g s", value.count() / 1000.0);
  return text;
}

void markSessionStarted() { sessionStarted.store(true, std::memory_order_relaxed); }

void requestSessionStop() { stopRequested.store(true); }
bool sessionStopping() { return stopRequested.load(); }
CallInFlight::CallInFlight() { ++callsInFlight; }
CallInFlight::~CallInFlight() { --callsInFlight; }

bool startSessionWatchdog(const SessionLimits &limits,
                          std::chrono::steady_clock::time_point deadline,
                          std::string &error) {
  std::chrono::milliseconds handshake = limits.handshakeTimeout;
  std::chrono::milliseconds launchTime = limits.launchTime;
  watchdogRunning = startThread(
      [=] {
        while (!watchdogStopping.load()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          if (watchdogStopping.load())
            return;
          if (!sessionStarted.load(std::memory_order_relaxed) &&
              std::chrono::steady_clock::now() > deadline) {
            logEvent("ended: no session started within " + formatDuration(handshake) +
                     " of connecting (--handshake-timeout)");
            std::fflush(nullptr);
            _exit(5);
          }
          std::string kernel;
          int64_t ran = 0;
          // Stopping: once no call waits for its reply and no kernel runs.
          if (stopRequested.load() && callsInFlight.load() == 0 &&
              !longestRunningKernel(kernel, ran))
            endSessionShuttingDown();
          if (launchTime.count() && longestRunningKernel(kernel, ran) &&
              ran > launchTime.count())
            endSessionWithError("kernel " + kernel + " ran longer than the "
                                "launch time limit of " + formatDuration(launchTime) +
                                " (executor-server --max-launch-time) and was "
                                "stopped");
        }
      },
      error, &watchdogThread);
  return watchdogRunning;
}

void stopSessionWatchdog() {
  if (!watchdogRunning)
    return;
  watchdogStopping.store(true);
  // At most one 50 ms sleep and one check; a check that ends the session
  // ends this process with it.
  pthread_join(watchdogThread, nullptr);
  watchdogRunning = false;
}

} // namespace executor_studio::runtime
