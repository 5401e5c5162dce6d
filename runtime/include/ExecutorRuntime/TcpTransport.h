//===- TcpTransport.h - SimpleRemoteEPC messages over a socket --*- C++ -*-===//
//
// The transport both ends of a session use. Same wire format as ORC's
// FDSimpleRemoteEPCTransport (a 32-byte header: size, opcode, sequence
// number, tag address; then the bytes), but each message leaves in one
// sendmsg (one TCP segment for small messages, where the FD transport's two
// writes make two), the reader takes whole messages from a buffer instead of
// two reads each, and disconnect() shuts the socket down so the reader
// always wakes (LLVM 22.1's FD transport can leave endSession waiting for
// ever on a socket).
//
// A Hangup that carries an error (executor-server sends one when a kernel
// crashes, naming the kernel and the signal) is kept: hangupMessage() gives
// it to the client, whose pending calls ORC only fails with "disconnecting".
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_TCPTRANSPORT_H
#define EXECUTORRUNTIME_TCPTRANSPORT_H

#include "llvm/ExecutionEngine/Orc/Shared/SimpleRemoteEPCUtils.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace executor_runtime {

class TcpTransport final : public llvm::orc::SimpleRemoteEPCTransport {
public:
  /// Takes ownership of `fd` (a connected stream socket).
  static llvm::Expected<std::unique_ptr<TcpTransport>>
  Create(llvm::orc::SimpleRemoteEPCTransportClient &client, int fd);
  /// The same; `*created` gets the transport (owned by its client).
  static llvm::Expected<std::unique_ptr<TcpTransport>>
  Create(llvm::orc::SimpleRemoteEPCTransportClient &client, int fd,
         TcpTransport **created);
  ~TcpTransport() override;

  /// Acknowledge every segment at once (TCP_QUICKACK after each read). For
  /// peers that send a message in two writes without TCP_NODELAY (ORC's FD
  /// transport: llvm-jitlink-executor, catalyst-executor), whose second write
  /// otherwise waits for the delayed ACK of the first, 40 ms a message.
  void setQuickAck(bool on) { quickAck = on; }

  /// The largest message body either transport accepts (TcpTransport and
  /// TlsTransport); a larger header ends the session with an error that says
  /// so. Unlimited unless set (executor-server sets --max-message-size).
  static void setMaxMessageSize(uint64_t bytes);
  static uint64_t maxMessageSize();
  /// The error for a message of `size` bytes over the limit; also kept as
  /// the process's lastRefusal() (a session whose first message is too
  /// large ends before ORC can report why).
  static std::string oversizeMessage(uint64_t size);
  static std::string lastRefusal();

  /// The message of an error Hangup the peer sent, or "".
  std::string hangupMessage() const;

  /// Sends a Hangup carrying the error `message` from a signal handler (no
  /// allocation, no blocking lock: it gives up after about 200 ms if another
  /// thread keeps sending). Later sends from other threads wait for ever,
  /// so nothing follows it on the wire.
  void sendHangupFromSignalHandler(const char *message, size_t size);

  llvm::Error start() override;
  llvm::Error sendMessage(llvm::orc::SimpleRemoteEPCOpcode opcode,
                          uint64_t seqNo, llvm::orc::ExecutorAddr tagAddr,
                          llvm::ArrayRef<char> argBytes) override;
  void disconnect() override;

private:
  TcpTransport(llvm::orc::SimpleRemoteEPCTransportClient &client, int fd)
      : client(client), fd(fd) {}
  void listen();

  llvm::orc::SimpleRemoteEPCTransportClient &client;
  int fd;
  std::mutex sendMutex;
  std::thread listener;
  std::atomic<bool> disconnected{false};
  std::atomic<bool> quickAck{false};
  mutable std::mutex hangupMutex;
  std::string hangup;
};

} // namespace executor_runtime

#endif // EXECUTORRUNTIME_TCPTRANSPORT_H
