//===- Stream.h - the bytes under a session's transport ---------*- C++ -*-===//
//
// The transport (StreamTransport.h) frames ORC's messages and the direct calls;
// what carries its bytes is a Stream, one implementation per kind of
// connection, chosen once where the connection is made (the client's
// connectStream, the server's acceptor for each listener) and never asked
// about again:
//   socketStream  a connected TCP socket (sendmsg/recv, MSG_NOSIGNAL);
//   unixStream    a Unix domain socket, whose messages may carry a
//                 descriptor (SCM_RIGHTS): shared memory crosses it;
//   tlsStream     TLS over TCP, records by OpenSSL (TlsStream.h);
//   stdioStream   a pair of descriptors, one read and one written (the
//                 pipes executor-server --stdio gets from ssh or srun).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_STREAM_H
#define EXECUTORRUNTIME_STREAM_H

#include "llvm/Support/Error.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <sys/types.h>
#include <sys/uio.h>

namespace executor_studio::runtime {
class TlsStream;

class Stream {
public:
  virtual ~Stream();
  /// The socket, for poll (owned by the stream).
  virtual int fd() const = 0;
  /// Reads up to `size` bytes (with `dontWait`, only what is there: -1 with
  /// errno EAGAIN when nothing is); descriptors that came with them go to
  /// the back of `passed`. 0 at the end of the stream, -1 on an error
  /// (lastError() says which).
  virtual ssize_t read(char *into, size_t size, bool dontWait,
                       std::deque<int> &passed) = 0;
  /// Writes all of `parts` in order, `passFd` (>= 0) with the first byte;
  /// nothing of another writer's comes in between (the caller serializes).
  virtual llvm::Error write(iovec *parts, size_t count, int passFd) = 0;
  /// Writes `data` as the process is about to end: gives up after about a
  /// second of a peer that takes nothing. Not from a signal handler (TLS
  /// is OpenSSL's, which allocates and locks).
  virtual void writeBeforeExit(const char *data, size_t size) = 0;
  /// Whether bytes already read wait in the stream (a reader must not wait
  /// for the socket then).
  virtual bool hasPending() { return false; }
  /// Why the last read failed.
  virtual std::string lastError() const;
  /// Wakes every reader and writer: they see the end of the stream.
  virtual void shutdown() = 0;
  /// Whether descriptors cross it (so buffers may go in shared memory).
  virtual bool passesDescriptors() const { return false; }
  /// Acknowledge every segment at once (TCP_QUICKACK after each read), for
  /// peers that send a message in two writes without TCP_NODELAY.
  virtual void setQuickAck(bool) {}
  /// What protects it ("TLS_AES_256_GCM_SHA384, kernel TLS: none"), or "".
  virtual std::string security() const { return ""; }
};

/// Take ownership of a connected socket `fd`.
std::unique_ptr<Stream> socketStream(int fd);
std::unique_ptr<Stream> unixStream(int fd);
std::unique_ptr<Stream> tlsStream(std::unique_ptr<TlsStream> tls);
/// Take ownership of `in` (read) and `out` (written), pipes or sockets;
/// null, with `why`, when it cannot watch them (epoll, eventfd).
std::unique_ptr<Stream> stdioStream(int in, int out, std::string &why);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_STREAM_H
