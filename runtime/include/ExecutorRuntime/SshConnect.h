//===- SshConnect.h - a session through OpenSSH's ssh ----------*- C++ -*-===//
//
// An ssh://[USER@]HOST[:PORT][/PATH] address (Address.h) runs the system's
// `ssh` as a child (argv, never a local shell) with
//   -T -o BatchMode=yes -o ServerAliveInterval=15 -o ControlMaster=auto
//   -o ControlPath=<private 0700 directory>/%C -o ControlPersist=60
//   [-F $EXECUTOR_SSH_CONFIG] [-p PORT] [-l USER] -- HOST PATH --stdio
// (without a PATH: the copy executor-deploy left there, deployedServerLauncher)
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

#include "ExecutorStudio/Support/Address.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace executor_studio::runtime {
class Stream;
struct ClientOptions;

/// The ssh command line for the ssh:// address `parts`, running
/// `remoteCommand` there (words the remote shell joins and interprets:
/// fixed text only, nothing an address or a peer chose), by default
/// `PATH --stdio` for an address with a path, else deployedServerLauncher().
std::vector<std::string>
sshCommand(const AddressParts &parts, const std::string &controlDirectory,
           std::chrono::milliseconds connectTimeout,
           const std::vector<std::string> &remoteCommand = {});

/// The private directory of ssh's control sockets (made when missing); ""
/// with `why` when it cannot be made or another user could enter it.
std::string sshControlDirectory(std::string &why);

/// `parts` written back as ssh://[USER@]HOST[:PORT], without a path.
std::string sshAddressText(const AddressParts &parts);

/// Where executor-deploy keeps servers on a remote host, as a (double-quoted)
/// word of the remote shell: "${XDG_CACHE_HOME:-$HOME/.cache}/executor-studio".
/// A copy lives in VERSION-SHA/executor-server there, SHA the first 16 hex
/// digits of its SHA-256.
std::string remoteDeployDirectory();

/// The remote command of an ssh:// address without a path (one `sh -c`
/// word of fixed text): the newest copy executor-deploy left for this
/// version (remoteDeployDirectory()/VERSION-*/executor-server), after its
/// SHA-256 is checked against its directory's name, with --stdio; else
/// executor-server --stdio from the remote PATH. A copy whose checksum does
/// not match is not run: it says kDamagedDeployment and exits with 125.
std::string deployedServerLauncher();

/// What the remote launcher says of a damaged copy.
inline constexpr const char *kDamagedDeployment =
    "executor-studio: damaged deployment";

/// What to do about a failed ssh (its standard error `said`, its exit code,
/// -2 when a signal ended it), for the address `parts`.
std::string explainSshFailure(const AddressParts &parts,
                              const std::string &said, int exitCode);

/// Starts `args` (a program that starts executor-server --stdio and carries
/// its standard input and output: ssh, srun; `installHint` says how to get
/// it) and waits up to `wait` for the ORC session to begin; the stream over
/// the child's pipe, which owns the child, or `explain(what the child said
/// on standard error, its exit code (-2: a signal), why no session began)`.
llvm::Expected<std::unique_ptr<Stream>> connectThroughProgram(
    const std::vector<std::string> &args, std::chrono::milliseconds wait,
    const std::string &installHint,
    llvm::function_ref<std::string(const std::string &, int,
                                   const std::string &)>
        explain);

/// The last few lines of `said`, joined by "; ".
std::string lastLines(const std::string &said);

/// Starts ssh for the ssh:// `address` (parsed into `parts`) and returns
/// the stream over its standard input and output, which owns the ssh
/// process (destroying it ends the session: ssh sees the end of its input,
/// the remote session the end of its own), or what to do when that failed.
llvm::Expected<std::unique_ptr<Stream>>
connectSsh(const AddressParts &parts, const ClientOptions &options);

/// Starts `srun --unbuffered --quiet --ntasks=1 --nodes=1 --NAME=VALUE...
/// -- PATH --stdio` for the slurm: address `parts` (a one-task step:
/// Slurm's allocation and authentication; --unbuffered gives the task's
/// output a pseudo-terminal in raw mode, whose bytes srun passes on at
/// once) and returns the stream over srun's standard input and output, as
/// connectSsh does. The step may wait for its allocation up to
/// $EXECUTOR_SLURM_WAIT seconds (default: 60, at least the handshake's
/// time-out).
llvm::Expected<std::unique_ptr<Stream>>
connectSlurm(const AddressParts &parts, const ClientOptions &options);

/// The srun command line for the slurm: address `parts`.
std::vector<std::string> srunCommand(const AddressParts &parts);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_SSHCONNECT_H
