//===- FuzzTransport.cpp - what a peer sends below ORC's message layer ----===//
//
// StreamTransport (runtime/include/ExecutorRuntime/StreamTransport.h) on the
// executor's side of a socket pair, fed by a peer that writes the input:
// message framing (32-byte headers, sizes, opcodes), direct calls and their
// replies, ORC messages handed to the session, a Hangup's error text.
//
// With FUZZ_SHARED_MEMORY the socket is a Unix socket and the input is a
// series of chunks, each sent with one sendmsg that may carry a memfd
// (SCM_RIGHTS) of a size, and sealing, the input chooses: the shared-memory
// messages (kShareArena), SharedArena::adopt, and direct launches whose data
// lies in the adopted arena (parsed with parseLaunchRequest and read as a
// kernel reads it, against the arena the transport holds).
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/Support/Error.h"

#include <condition_variable>
#include <fcntl.h>
#include <mutex>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace executor_studio::runtime;
using namespace llvm;
using namespace llvm::orc;

namespace {
/// The session above the transport: takes every ORC message, notes the end.
class Session : public SimpleRemoteEPCTransportClient {
public:
  Expected<HandleMessageAction> handleMessage(SimpleRemoteEPCOpcode opcode,
                                              uint64_t, ExecutorAddr,
                                              shared::WrapperFunctionBuffer) override {
    return opcode == SimpleRemoteEPCOpcode::Hangup ? EndSession
                                                   : ContinueSession;
  }
  void handleDisconnect(Error err) override {
    consumeError(std::move(err));
    std::lock_guard<std::mutex> lock(mutex);
    ended = true;
    wake.notify_all();
  }
  void waitForEnd() {
    std::unique_lock<std::mutex> lock(mutex);
    wake.wait(lock, [&] { return ended; });
  }

private:
  std::mutex mutex;
  std::condition_variable wake;
  bool ended = false;
};

/// Serves a direct call as executor-server does with a launch: the request
/// is parsed against the peer's arena and its inputs read by their shapes;
/// the reply is empty.
void serveDirect(StreamTransport &transport, uint64_t seq, uint64_t, uint32_t,
                 shared::WrapperFunctionBuffer request) {
  const SharedArena &peer = transport.peerArena();
  LaunchRequest parsed;
  unsigned sum = 0;
  if (parseLaunchRequest(request.data(), request.size(), peer.data(),
                         peer.size(), parsed)
          .empty())
    for (size_t i = 0; i < parsed.args.size(); ++i) {
      DescriptorView view = parsed.inputView(i);
      const volatile char *first = view.aligned();
      uint64_t bytes = uint64_t(view.numElements()) * parsed.inElt[i];
      for (uint64_t b = 0; b < bytes; ++b)
        sum += first[b];
    }
  uint64_t status = sum == 0xdeadbeef ? kReplyError : kReplyOk;
  iovec part{&status, sizeof(status)};
  consumeError(transport.replyDirect(seq, ArrayRef<iovec>(part)));
}

#ifdef FUZZ_SHARED_MEMORY
/// Sends `bytes` on `fd`, with a memfd of `memfdBytes` when that is not 0
/// (sealed against shrinking when `sealed`).
void sendChunk(int fd, const uint8_t *bytes, size_t size, size_t memfdBytes,
               bool sealed) {
  int passed = -1;
  if (memfdBytes) {
    passed = memfd_create("fuzz-arena", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (passed >= 0 && ftruncate(passed, static_cast<off_t>(memfdBytes)) == 0 &&
        sealed)
      fcntl(passed, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
  }
  iovec iov{const_cast<uint8_t *>(bytes), size};
  msghdr message{};
  message.msg_iov = &iov;
  message.msg_iovlen = 1;
  OneDescriptorControl control;
  if (passed >= 0)
    attachDescriptor(message, control, passed);
  if (size || passed >= 0)
    (void)::sendmsg(fd, &message, MSG_NOSIGNAL);
  if (passed >= 0)
    ::close(passed);
}
#endif
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // As executor-server --max-message-size (small: the input is too).
  StreamTransport::setMaxMessageSize(1 << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return 0;
  Session session;
  TransportOptions options;
  options.executorSide = true;
  options.directHandler = serveDirect;
#ifdef FUZZ_SHARED_MEMORY
  std::unique_ptr<Stream> stream = unixStream(sv[0]);
#else
  std::unique_ptr<Stream> stream = socketStream(sv[0]);
#endif
  auto transport =
      StreamTransport::Create(session, std::move(stream), nullptr, options);
  if (!transport) {
    consumeError(transport.takeError());
    ::close(sv[1]);
    return 0;
  }
  if (Error err = (*transport)->start()) {
    consumeError(std::move(err));
    ::close(sv[1]);
    return 0;
  }
  // As executor-server's ORC server: its Setup message (unread here), then
  // the transport reads.
  if (Error err = (*transport)->sendMessage(SimpleRemoteEPCOpcode::Setup, 0,
                                            ExecutorAddr(), {}))
    consumeError(std::move(err));
#ifdef FUZZ_SHARED_MEMORY
  // Chunks: u8 memfd pages (0: none; the high bit: unsealed), u16 length,
  // then the bytes.
  while (size >= 3) {
    size_t pages = data[0] & 0x7f;
    bool sealed = !(data[0] & 0x80);
    size_t length = std::min<size_t>(data[1] | (data[2] << 8), size - 3);
    sendChunk(sv[1], data + 3, length, pages * 4096, sealed);
    data += 3 + length;
    size -= 3 + length;
  }
#else
  // Replies go unread: a large input could fill both directions.
  for (size_t at = 0; at < size;) {
    ssize_t n = ::send(sv[1], data + at, size - at, MSG_NOSIGNAL);
    if (n <= 0)
      break;
    at += static_cast<size_t>(n);
  }
#endif
  ::shutdown(sv[1], SHUT_WR);
  session.waitForEnd();
  (*transport)->disconnect();
  transport->reset();
  ::close(sv[1]);
  return 0;
}
