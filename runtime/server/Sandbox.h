//===- Sandbox.h - what a session process may do ----------------*- C++ -*-===//
//
// The parts of a session's sandbox that executor-server puts in place in
// the session process, after it has dropped its privileges
// (Privileges.h): only its own descriptors stay open, a kernel's standard
// output and error reach the log escaped under the session's prefix, and a
// libseccomp filter refuses the system calls a kernel never needs. The
// listener says at start which isolation is in force (describeIsolation);
// --require-isolation refuses to start when any of it is missing.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_SANDBOX_H
#define EXECUTORSERVER_SANDBOX_H

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace executor_studio::runtime {

/// Leaves the server's terminal: the process (a session's keeper, or the
/// session itself where there are no namespaces) starts a session of its
/// own (setsid), so no process of an executor session has a controlling
/// terminal: /dev/tty names none, and the terminal the server was started
/// from cannot be pushed input (TIOCSTI) by a kernel. "" or the problem.
std::string leaveTerminal();

/// The log of a session that has a keeper: a pipe whose write end becomes
/// the session's standard output and error (what logEvent and crash
/// reports write), read by a thread of the keeper that writes each line on
/// to the keeper's own standard error with every byte outside printable
/// ASCII escaped (LogText.h) and at most kLogBurst bytes at once, then
/// kLogRate a second (what is over is dropped and counted in a line of its
/// own). So a session never holds the descriptor of the terminal or file
/// the server logs to, and a kernel that writes to its log descriptor
/// directly can neither drive the terminal nor fill the disk.
struct LogRelay {
  int readEnd = -1, writeEnd = -1;
};
constexpr size_t kLogBurst = 1 << 20;
constexpr size_t kLogRate = 256 << 10;
/// How late a --stdio session's log lines may reach the client (they are
/// written in batches, keepSession).
constexpr std::chrono::milliseconds kStdioLogGather{50};
/// Opens the pipe (in the keeper, before it forks the session).
std::string openLogRelay(LogRelay &relay);
/// In the session: the relay's write end on fds 1 and 2, /dev/null on 0.
void writeLogToRelay(LogRelay &relay);

/// Closes every descriptor but 0, 1, 2, `keep` and `keepToo` (--stdio's
/// output, when it is not -1) (close_range): nothing
/// of the listener's (its listening sockets, other clients' connections,
/// pipes) reaches a kernel.
void closeInheritedDescriptors(int keep, int keepToo = -1);

/// Sends the session's standard output and error (fds 1 and 2, a kernel's
/// printf and perror) through a pipe that a thread reads and logs line by
/// line with logEvent: escaped, under the session's prefix, so a kernel
/// cannot write a log line of its own. The log itself goes on through a
/// copy of the original fd 2 (logDescriptor). Standard input is /dev/null.
/// "" or the problem.
std::string captureKernelOutput();

/// At the session's end: closes this process's ends of the output pipe and
/// waits (at most a second) until the thread has logged what a kernel
/// wrote last, so no line is lost when the session exits.
void finishKernelOutput();

/// Loads the seccomp filter (libseccomp) on every thread of the session:
/// an allow-list of what sessions call (the C library's, the JIT's, the
/// transport's and Catalyst's services' calls, and `allowed`, from
/// --allow-syscall); any other call returns ENOSYS, as on a kernel that
/// lacks it, and the log names it and the flag that allows it. Besides,
/// ptrace, process_vm_readv/writev, mount and the new mount API,
/// pivot_root, chroot, keyctl/add_key/request_key, bpf, perf_event_open,
/// userfaultfd, unshare, setns, clone with a new-namespace flag (clone3 is
/// ENOSYS, so libc falls back to clone, whose flags the filter can read),
/// module and kexec loading, swap, reboot, acct, quotactl,
/// open_by_handle_at, kcmp, syslog and io_uring fail with EPERM, and so do
/// netlink, vsock and packet sockets and the ioctls that push input into a
/// terminal or drive its console (TIOCSTI, TIOCLINUX) on any descriptor.
/// "" or the problem.
std::string installSyscallFilter(const std::vector<std::string> &allowed);

/// "" when every name in `names` is a system call of this machine, else
/// the message naming the first that is not.
std::string checkSyscallNames(const std::vector<std::string> &names);

/// Runs `step` in a forked child: true when it returned "", else false
/// with what it returned (or why the child failed) in `why`. How the
/// listener learns, before any session, what this machine lets one do.
bool worksInChild(const std::function<std::string()> &step, std::string &why);

/// Whether this machine lets a session load the filter (qemu-user and
/// some containers do not): tried in a child process; false with `why`.
bool syscallFilterWorks(const std::vector<std::string> &allowed,
                        std::string &why);

/// The namespaces a session gets: each its own user, PID, mount and IPC
/// namespaces (its keeper enters them, enterSessionNamespaces, and forks
/// the session as PID 1 of the new PID namespace, becomeSessionInit).
struct SessionNamespaces {
  bool namespaces = false;  // user, PID, mount, IPC
  /// A network namespace of its own with only its loopback up
  /// (--session-network=own, the default); false: the host's network.
  bool ownNetwork = false;
  /// Why a network namespace was asked for and refused (the others given).
  std::string noNetworkWhy;
  bool privateProc = false; // /proc of its own PID namespace
  std::string why;          // what the machine refused
  std::string noProcWhy;
};

/// Whether this machine gives sessions their namespaces: a child goes
/// through the same steps as a session (as `runAs`) and says how far it
/// came.
struct RunAs;
SessionNamespaces probeSessionNamespaces(const RunAs &runAs,
                                         bool ownNetwork);

/// In the keeper, after enterSessionPrivileges: a user namespace of its own
/// (its uid and gid mapped to themselves, setgroups denied), new mount and
/// IPC namespaces, and a new PID namespace for the session it forks next.
/// In the mount namespace (private propagation) /tmp, /var/tmp, /dev/shm
/// and the asset root are tmpfs of their own (`tmpfsSize` each at most; 0:
/// tmpfs's default), with the session's asset directory `assets` (the
/// working directory) bound back in its place. "" or the problem.
/// With `ownNetwork`, a network namespace too, whose only interface is its
/// own loopback (brought up here): a kernel reaches no service of the
/// host's, not even on the host's loopback, and no network the host is on.
/// Every other mount (the host's directories) is read-only in the session
/// (mount_setattr, recursively), its own tmpfs and asset directory
/// writable. Without `newIpc` the process is in an IPC namespace of its own
/// already (enterLimitedIpcNamespace, MemoryCgroup.h).
std::string enterSessionNamespaces(const std::string &assets,
                                   uint64_t tmpfsSize, bool ownNetwork,
                                   bool newIpc);

/// In the session forked by the keeper (PID 1 of its namespace): keeps its
/// PID as the host sees it (sessionHostPid), mounts the namespace's own
/// /proc (when `privateProc`), drops every capability, and dies with the
/// keeper, whose end it checks on `keeperAlive` (a pipe whose other end
/// only the keeper holds). "" or the problem.
std::string becomeSessionInit(bool privateProc, int keeperAlive);

/// The keeper: relays the session's log (`log`, the read end of its
/// LogRelay), waits for the session `session`, passes SIGTERM on to it,
/// and ends as it ended (dying of the signal that ended it, or of the one
/// its crash report wrote to `crashSignal`) once the log has been relayed
/// to its end (a second at most). A session's exit ends its PID namespace:
/// the kernel kills every process left in it. With `gatherLog`, the log's
/// lines are written in batches at most that late (--stdio, where every
/// write crosses the network as a message of its own).
[[noreturn]] void keepSession(pid_t session, volatile int *crashSignal,
                              int log,
                              std::chrono::milliseconds gatherLog = {});

/// What isolation sessions get on this machine, one line for the log;
/// `missing` gets what a session does not have.
/// `noIpcLimitsWhy`: "" when sessions' SysV limits are set.
struct MemoryCgroups;
std::string describeIsolation(bool dropsPrivileges, bool syscallFilter,
                              const std::string &noFilterWhy,
                              const SessionNamespaces &namespaces,
                              uint64_t sessionMemory, unsigned processes,
                              const MemoryCgroups &memory,
                              const std::string &noIpcLimitsWhy,
                              std::vector<std::string> &missing);

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_SANDBOX_H
