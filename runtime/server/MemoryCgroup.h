//===- MemoryCgroup.h - a session's memory counted where it is --*- C++ -*-===//
//
// RLIMIT_DATA and RLIMIT_AS count what a process maps. Pages that belong to
// no mapping escape them: a memfd grown with fallocate and never mapped,
// SysV shared memory that was detached, a tmpfs file. The kernel charges
// each such page to the memory cgroup of the process that made it, so a
// memory cgroup per session (cgroup v2's memory.max where the server's group
// is delegated to it, v1's memory.limit_in_bytes where the machine has the
// v1 memory controller) bounds them, and the OOM killer then picks a process
// of that session, not of the host. The SysV limits of the session's own
// IPC namespace (set while the session is still root, before it drops its
// privileges) keep segments and message queues to the session's size too.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_MEMORYCGROUP_H
#define EXECUTORSERVER_MEMORYCGROUP_H

#include <cstdint>
#include <string>
#include <sys/types.h>

namespace executor_studio::runtime {

/// Where sessions' memory groups are made, found at start by the listener.
struct MemoryCgroups {
  enum class Kind { None, V1, V2 };
  Kind kind = Kind::None;
  /// The directory of this server's own group; sessions' groups are in it.
  std::string parent;
  /// Why there is none (Kind::None).
  std::string why;
  /// "cgroup v2 memory.max" or "cgroup v1 memory controller".
  const char *describe() const;
};

/// Finds the memory controller of this process's cgroup and makes a group
/// for this server's sessions in it (v2: the listener moves into a leaf of
/// its own first, as the "no internal processes" rule asks).
MemoryCgroups setUpMemoryCgroups();

/// What a session's group allows: the session's memory limit and the
/// runtime's own (its code, the JIT, the transport's buffers).
uint64_t sessionCgroupLimit(uint64_t sessionMemory);

/// In a session's first process, still privileged: a group of its own
/// (named after `session`, its PID) with `bytes` as the limit, swap
/// included where the machine counts it, and the process in it, so that
/// every process of the session is. "" or the problem.
std::string enterSessionMemoryCgroup(const MemoryCgroups &groups,
                                     pid_t session, uint64_t bytes);

/// In the listener once the session's processes are gone: its group.
void removeSessionMemoryCgroup(const MemoryCgroups &groups, pid_t session);

/// At the server's end: its own group, once empty.
void removeMemoryCgroups(const MemoryCgroups &groups);

/// In a session's first process, still privileged (root): an IPC namespace
/// of its own whose SysV limits hold at most `bytes` of shared memory in at
/// most a few segments, and few small message queues and semaphore sets
/// (root of the host's user namespace sets them; the session cannot raise
/// them). "" or the problem.
std::string enterLimitedIpcNamespace(uint64_t bytes);

/// Whether a session can have that (the server is root and the machine
/// gives IPC namespaces): tried in a child; false with `why`.
bool ipcLimitsWork(uint64_t bytes, std::string &why);

} // namespace executor_studio::runtime

#endif
