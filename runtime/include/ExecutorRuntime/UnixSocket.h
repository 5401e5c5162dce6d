//===- UnixSocket.h - executors on this host, over a Unix socket -*- C++ -*-===//
//
// `unix:PATH` addresses: executor-server --bind unix:PATH listens on a Unix
// domain socket whose file mode is its access control (no token: whoever
// may open the file may start sessions), and clients on the same host reach
// it there, handing large buffers over in shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_UNIXSOCKET_H
#define EXECUTORRUNTIME_UNIXSOCKET_H

#include "ExecutorRuntime/Address.h"

#include <chrono>
#include <string>

namespace executor_studio::runtime {

/// Whether `address` is `unix:PATH`; `path` gets PATH.
bool isUnixAddress(const std::string &address, std::string *path = nullptr);

/// Connects to the Unix socket `path` within `timeout`; the socket or -1
/// with `error` saying why.
int connectUnix(const std::string &path, std::chrono::milliseconds timeout,
                std::string &error);

/// Binds and listens on the Unix socket `path`, with file mode `mode`
/// (0600: only this user). A socket file left by a server that is gone is
/// replaced; one that a live server listens on, or a file that is not a
/// socket, is refused. -1 with `error` saying why.
int listenUnix(const std::string &path, unsigned mode, std::string &error);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_UNIXSOCKET_H
