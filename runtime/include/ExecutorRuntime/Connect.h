//===- Connect.h - the client's one way to a session's bytes ----*- C++ -*-===//
//
// connectTransport is the one place on the client that knows what carries a
// session: it connects to a TCP address or a Unix socket, runs what comes
// before ORC there (TLS and the token, Handshake.h; neither on a Unix
// socket, whose file mode decides who connects) and returns the Stream
// (Stream.h) the session's transport frames messages over. Nothing after it
// asks which kind of connection it made. The server's counterpart is an
// acceptor per listener (executor-server's Acceptor.h).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_CONNECT_H
#define EXECUTORRUNTIME_CONNECT_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace executor_studio::runtime {
class Stream;
struct ClientOptions;

/// Connects to `address` (HOST:PORT, [v6]:PORT, unix:PATH, or starts ssh
/// or srun for ssh:// and slurm: (SshConnect.h), already mapped by
/// EXECUTOR_ADDRESS_MAP) with `options` completed from the
/// environment (EXECUTOR_TOKEN, EXECUTOR_TOKEN_FILE, EXECUTOR_TLS_CA,
/// EXECUTOR_LIVENESS_TIMEOUT): a connected, authenticated stream, or why
/// not (a setting that cannot be used, a refused or failed connection, a
/// failed handshake).
llvm::Expected<std::unique_ptr<Stream>>
connectTransport(const std::string &address, const ClientOptions &options);

/// Seconds from the environment variable `name`, or `fallback` when it is
/// unset; false, with `why`, when it is not a whole number of seconds.
bool secondsFromEnvironment(const char *name, int64_t fallback,
                            int64_t &seconds, std::string &why);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_CONNECT_H
