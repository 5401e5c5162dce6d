//===- Socket.h - TCP helpers shared by client and server -------*- C++ -*-===//
#ifndef EXECUTORRUNTIME_SOCKET_H
#define EXECUTORRUNTIME_SOCKET_H

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <sys/socket.h>
#include <vector>

namespace executor_studio::runtime {

/// `host:port` split; IPv6 hosts come in brackets. Returns false (and sets
/// `error`) when `address` is not of that form, or when the port is not a
/// number from 0 to 65535.
bool splitAddress(const std::string &address, std::string &host,
                  std::string &port, std::string &error);

/// Applies EXECUTOR_ADDRESS_MAP to `address`: entries `FROM=HOST:PORT` (or
/// `FROM=unix:PATH`)
/// separated by commas ("ADDR:PORT=127.0.0.1:7000,gpu:1=10.0.0.2:7000"),
/// the first entry whose FROM is `address` wins; without one `mapped` is
/// `address`. Returns false with `error` naming the first malformed entry
/// (every entry is checked, used or not). When entries are set but none
/// maps `address`, `unmatched` (if given) names each and why it does not,
/// e.g. "EXECUTOR_ADDRESS_MAP has no entry for lab:7000: 'lab=10.0.0.2:7000'
/// does not match ('lab' is its host alone; FROM is the whole address,
/// 'lab:7000')"; else it is empty.
bool mapAddress(const std::string &address, std::string &mapped,
                std::string &error, std::string *unmatched = nullptr);

/// Connects to `address` within `timeout`; returns the socket (tuned with
/// tuneSocket) or -1 with `error` saying why.
int connectTo(const std::string &address, std::chrono::milliseconds timeout,
              std::string &error);

/// Sets TCP_NODELAY (without it every ORC message waits for a delayed ACK)
/// and 4 MiB socket buffers.
void tuneSocket(int fd);

/// A TCP socket bound to a free port on 127.0.0.1, listening when `listen`
/// is set; its `host:port` in `address`. -1 on failure. Tests use it for a
/// port nothing listens on (close it) or a peer that never speaks ORC.
int bindLoopback(bool listen, std::string &address);

/// Writes all of `data` to the socket `fd`; false on error. With
/// `timeoutMs` >= 0, false too when that is not done within `timeoutMs`:
/// then it never blocks longer and allocates nothing (for signal handlers).
bool writeAll(int fd, const void *data, size_t size, int timeoutMs = -1);
/// Reads one '\n'-terminated line (without it) by `deadline`; nothing
/// after the line is consumed.
bool readLine(int fd, std::string &line,
              std::chrono::steady_clock::time_point deadline,
              size_t maxLength = 4096);

/// The milliseconds from now to `deadline`, 0 once it has passed (a
/// poll() time-out).
int millisecondsUntil(std::chrono::steady_clock::time_point deadline);
/// Waits up to `timeoutMs` (-1: for ever) for `events` on `fd`, waiting
/// again when a signal interrupts it: poll()'s result (> 0: `fd` is ready
/// or has an error or hang-up to report, 0: the time passed, < 0: poll
/// failed). Allocates nothing (signal handlers use it).
int pollFor(int fd, short events, int timeoutMs);
/// The same until `deadline` (the time left is counted again after a
/// signal).
int pollUntil(int fd, short events,
              std::chrono::steady_clock::time_point deadline);
/// Takes `mutex` if it comes free within `timeoutMs`, spinning (no blocking
/// wait, no allocation: for a session about to end). False when it did not.
bool tryLockFor(std::mutex &mutex, int timeoutMs);

/// Room for one descriptor in a message's control data.
union OneDescriptorControl {
  cmsghdr align;
  char bytes[CMSG_SPACE(sizeof(int))];
};
/// Makes `message` carry `fd` (SCM_RIGHTS), its control data in `control`.
void attachDescriptor(msghdr &message, OneDescriptorControl &control, int fd);

/// The most descriptors receiveDescriptors takes from one message.
constexpr size_t kMaxReceivedDescriptors = 8;
/// recvmsg() of up to `size` bytes on `socket` into `into` (`flags` besides
/// MSG_CMSG_CLOEXEC), appending the descriptors passed with them
/// (SCM_RIGHTS) to `passed`: at most `maxDescriptors` (up to
/// kMaxReceivedDescriptors) a message; the kernel closes any beyond.
/// Returns what recvmsg returns.
ssize_t receiveDescriptors(int socket, char *into, size_t size, int flags,
                           size_t maxDescriptors, std::vector<int> &passed);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_SOCKET_H
