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

#include "ExecutorStudio/Support/Address.h"

#include <chrono>
#include <string>
#include <sys/un.h>

namespace executor_studio::runtime {

/// Whether `address` is `unix:PATH`; `path` gets PATH.
bool isUnixAddress(const std::string &address, std::string *path = nullptr);

/// Connects to the Unix socket `path` within `timeout`; the socket or -1
/// with `error` saying why.
int connectUnix(const std::string &path, std::chrono::milliseconds timeout,
                std::string &error);

/// `path` as a Unix socket address, checked as the address grammar checks
/// it (Address.h); false with `error` saying why.
bool unixSocketAddress(const std::string &path, sockaddr_un &addr,
                       std::string &error);
/// Socket buffers for large messages, on a connected Unix socket.
void tuneUnixSocket(int fd);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_UNIXSOCKET_H
