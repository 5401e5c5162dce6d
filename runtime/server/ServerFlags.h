//===- ServerFlags.h - executor-server's command line -----------*- C++ -*-===//
//
// executor-server's flags, parsed with llvm::cl as the other tools do: a
// misspelt flag gets a suggestion, a bad value one line naming the flag and
// "see --help", and --help lists them by topic.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTOR_SERVER_SERVERFLAGS_H
#define EXECUTOR_SERVER_SERVERFLAGS_H

#include "Limits.h"

#include <string>
#include <vector>

namespace executor_studio::runtime {

/// Everything the command line says.
struct ServerFlags {
  /// Default (no --bind): a Unix socket in privateRuntimeDirectory() when
  /// $XDG_RUNTIME_DIR is set, else 127.0.0.1:0 with a generated token.
  std::vector<std::string> binds = {};
  /// --stdio: one session on standard input and output, no listener.
  bool stdio = false;
  std::vector<std::string> plugins;
  unsigned unixMode = 0600;
  bool allowRemote = false, insecurePlaintext = false;
  /// --no-token: TCP without a token (else one is generated when
  /// --token-file gives none).
  bool noToken = false;
  std::string tokenFile, tlsCert, tlsKey;
  std::string runAsUser = "nobody";
  bool runAsNamed = false; // --run-as was given
  SessionLimits limits;
  std::string assetRoot; // default: $TMPDIR, else /tmp
  bool useKernelHeap = true;
  /// --require-isolation: refuse to start when sessions would lack any of
  /// the sandbox (Sandbox.h, describeIsolation).
  bool requireIsolation = false;
  /// --session-network=own (default): each session in a network namespace
  /// of its own with only its loopback; host: the host's network.
  bool ownNetwork = true;
  /// --allow-syscall: system calls the seccomp filter allows beyond its
  /// list (Sandbox.h).
  std::vector<std::string> allowedCalls;
  bool logLaunches = true;
  bool publishOurs = true, publishCatalyst = true;
  /// Each session waits for a debugger before its first launch.
  bool debugWait = false;
  /// Started as catalyst-executor (parseCatalystExecutorFlags): Catalyst's
  /// launcher reads `Listening on HOST:PORT` (capital L) on standard error.
  bool catalystExecutor = false;
};

/// Parses argv (--help and --version print and exit 0; an error prints one
/// line and exits 2).
ServerFlags parseServerFlags(int argc, char **argv, const char *version);

/// Prints "executor-server: PROBLEM (see --help)" and exits 2 (the name is
/// programName()).
[[noreturn]] void flagError(const std::string &problem);

/// The name this server was started under, for its messages:
/// "executor-server", or "catalyst-executor".
const char *programName();

/// Whether argv[0] names catalyst-executor (the same binary, installed
/// under that name beside executor-server as a symbolic link).
bool invokedAsCatalystExecutor(const char *argv0);

/// catalyst-executor's command line: the flags Catalyst's launcher
/// (catalyst.executor.Executor) passes, `--bind=HOST:PORT` (repeatable) and
/// `--plugin=LIB.so` (repeatable), mapped onto the server's own options
/// with Catalyst's trust model: loopback (or unix:PATH) only, a bind
/// anywhere else refused with a message; no token (Catalyst's runtime
/// proves none); only Catalyst's executor services (as --services=catalyst).
/// --help and --version as parseServerFlags.
ServerFlags parseCatalystExecutorFlags(int argc, char **argv,
                                       const char *version);

} // namespace executor_studio::runtime

#endif // EXECUTOR_SERVER_SERVERFLAGS_H
