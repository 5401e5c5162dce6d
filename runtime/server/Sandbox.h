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

#include <string>
#include <vector>

namespace executor_studio::runtime {

/// Closes every descriptor but 0, 1, 2 and `keep` (close_range): nothing
/// of the listener's (its listening sockets, other clients' connections,
/// pipes) reaches a kernel.
void closeInheritedDescriptors(int keep);

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
/// ptrace, process_vm_readv/writev, mount and the new mount API, pivot_root,
/// chroot, keyctl/add_key/request_key, bpf, perf_event_open, userfaultfd,
/// unshare, setns, clone with a new-namespace flag (clone3 is ENOSYS, so
/// libc falls back to clone, whose flags the filter can read), module and
/// kexec loading, swap, reboot, acct, quotactl, open_by_handle_at, kcmp and
/// syslog fail with EPERM. "" or the problem.
std::string installSyscallFilter();

/// Whether this machine lets a session load the filter (qemu-user and
/// some containers do not): tried in a child process; false with `why`.
bool syscallFilterWorks(std::string &why);

/// What isolation sessions get on this machine, one line for the log;
/// `missing` gets what a session does not have.
std::string describeIsolation(bool dropsPrivileges, bool syscallFilter,
                              const std::string &noFilterWhy,
                              std::vector<std::string> &missing);

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_SANDBOX_H
