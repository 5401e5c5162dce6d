//===- SshConnect.h - a session through OpenSSH's ssh ----------*- C++ -*-===//
//
// An ssh://[USER@]HOST[:PORT][/PATH] address (Address.h) runs the system's
// `ssh` as a child (argv, never a local shell) with
//   -T -o BatchMode=yes -o ServerAliveInterval=15 -o ControlMaster=auto
//   -o ControlPath=<private 0700 directory>/%C -o ControlPersist=60
//   [-F $EXECUTOR_SSH_CONFIG] [-p PORT] [-l USER] -- HOST PATH --stdio
// and speaks ORC over its standard input and output. Authentication,
// encryption, ~/.ssh/config (or the file $EXECUTOR_SSH_CONFIG names, in its
// stead), the agent, ProxyJump and known_hosts are ssh's;
// the remote executor-server --stdio asks for no token and no TLS. What ssh
// says on standard error when it fails is turned into what to do; once the
// session runs, what the remote executor-server logs (kernels' output
// included) goes to this process's standard error.
//
// The control directory is $EXECUTOR_SSH_CONTROL_DIR when set, else
// $XDG_RUNTIME_DIR/executor-studio-ssh, else /tmp/executor-studio-ssh-UID;
// it is created with mode 0700 and refused when another user could enter it.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_SSHCONNECT_H
#define EXECUTORRUNTIME_SSHCONNECT_H

#include "ExecutorRuntime/Address.h"

#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace executor_studio::runtime {
class Stream;
struct ClientOptions;

/// The ssh command line for the ssh:// address `parts`.
std::vector<std::string> sshCommand(const AddressParts &parts,
                                    const std::string &controlDirectory,
                                    std::chrono::milliseconds connectTimeout);

/// What to do about a failed ssh (its standard error `said`, its exit code,
/// -2 when a signal ended it), for the address `parts`.
std::string explainSshFailure(const AddressParts &parts,
                              const std::string &said, int exitCode);

/// Starts ssh for the ssh:// `address` (parsed into `parts`) and returns
/// the stream over its standard input and output, which owns the ssh
/// process (destroying it ends the session: ssh sees the end of its input,
/// the remote session the end of its own), or what to do when that failed.
llvm::Expected<std::unique_ptr<Stream>>
connectSsh(const AddressParts &parts, const ClientOptions &options);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_SSHCONNECT_H
