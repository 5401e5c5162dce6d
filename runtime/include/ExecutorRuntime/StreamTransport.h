//===- StreamTransport.h - SimpleRemoteEPC messages over a Stream -*- C++ -*-===//
//
// The transport both ends of a session use: it only frames messages, over
// the Stream (Stream.h) it is given: TCP, TLS over TCP, a Unix domain socket
// or a pipe pair (--stdio, ssh://, slurm:), where on a Unix socket large buffers are handed over in shared memory
// (SharedMemory.h) instead of being copied through the socket. It never asks
// which. Same wire format as ORC's FDSimpleRemoteEPCTransport
// (a 32-byte header: size, opcode, sequence number, tag address; then the
// bytes), but each message leaves in one sendmsg (one TCP segment for small
// messages, where the FD transport's two writes make two; over TLS its small
// parts are gathered into one record), the reader takes
// whole messages from a buffer instead of two reads each, and disconnect()
// shuts the socket down so the reader always wakes (LLVM 22.1's FD transport
// can leave endSession waiting for ever on a socket).
//
// Below ORC's message layer it also carries *direct calls*, which ORC never
// sees: opcodes of their own, for the one call whose cost is the product,
// the launch. A direct call's request is gathered from the caller's buffers
// (memref data goes from where it lies into the socket) and its reply is read
// into one buffer the caller keeps. The calling thread reads the socket
// itself while it waits (no hand-over from a reader thread: a launch costs
// what a ping-pong does), and so does any thread waiting in waitUntil; a
// background thread reads only when nobody waits. On the server, the thread
// that reads a direct call runs it at once; a watcher passes the reading on
// to another thread when a call runs longer than a millisecond, so a long
// kernel never holds up the session's other calls (and a burst of short
// launches wakes no other thread). Which peers get direct calls, and for
// what, is the launch protocol's business (kDirectCallsSymbol, Wire.h), not
// the transport's.
//
// A Hangup that carries an error (executor-server sends one when a kernel
// crashes, naming the kernel and the signal) is kept: hangupMessage() gives
// it to the client, whose pending calls ORC only fails with "disconnecting".
//
// On the client's side every ORC message is checked before ORC handles it
// (checkOrcMessage; LLVM's handling trusts its peer and crashes on a lie):
// one Setup, first, per session; a Result only for a call this side made and
// has not had answered (the transport keeps the sequence numbers of the
// CallWrappers it sent); and in the SPS payloads ORC deserializes (Setup,
// Hangup, the results of ORC's own services, known by the bootstrap symbols
// Setup named) no length larger than the bytes left. A message that began
// must end within stallTimeout.
//
// Limits apply to every message, direct calls and shared memory included:
// a header larger than maxMessageSize() (executor-server
// --max-message-size) ends the session with an error that says so, and so
// does a peer's shared-memory arena larger than it.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_STREAMTRANSPORT_H
#define EXECUTORRUNTIME_STREAMTRANSPORT_H

#include "ExecutorRuntime/SharedMemory.h"
#include "ExecutorRuntime/Stream.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ExecutionEngine/Orc/Shared/SimpleRemoteEPCUtils.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <sys/uio.h>
#include <thread>
#include <unordered_map>
#include <vector>

namespace executor_studio::runtime {

/// A direct call that had no reply within its time limit (callDirect): the
/// connection is closed then.
class DirectCallTimeout : public llvm::ErrorInfo<DirectCallTimeout> {
public:
  static char ID;
  explicit DirectCallTimeout(std::chrono::milliseconds limit) : limit(limit) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::chrono::milliseconds limit;
};

/// Direct-call flag: the reply may put buffers in the server's arena.
inline constexpr uint32_t kDirectMayShareReply = 1;

class StreamTransport;
struct TransportOptions {
  /// Serves one direct call on the thread that read it: reply with
  /// replyDirect(seq, ...) exactly once.
  using DirectHandler = std::function<void(
      StreamTransport &transport, uint64_t seq, uint64_t function,
      uint32_t flags, llvm::orc::shared::WrapperFunctionBuffer request)>;
  /// The executor's side: it reads for itself (no callers wait there).
  bool executorSide = false;
  /// On the executor's side: serves direct calls with this handler (none:
  /// a direct call is an error that ends the session).
  DirectHandler directHandler;
  /// The client's side: a message whose first bytes came must be whole
  /// within this long, or the session ends (0: no limit). The liveness
  /// time-out: an executor that stalls in the middle of a reply is not
  /// waited for longer (its TCP still acknowledges, so the socket's own
  /// liveness checks never fire).
  std::chrono::milliseconds stallTimeout{0};
  /// On the executor's side: the Setup message has gone out already (sent
  /// by executor-server's listener before the session existed): reading
  /// starts with start().
  bool setupSent = false;
};

class StreamTransport final : public llvm::orc::SimpleRemoteEPCTransport {
public:
  using Options = TransportOptions;

  /// Frames messages over `stream` (owned); `*created` gets the transport
  /// (owned by its client).
  static llvm::Expected<std::unique_ptr<StreamTransport>>
  Create(llvm::orc::SimpleRemoteEPCTransportClient &client,
         std::unique_ptr<Stream> stream, StreamTransport **created = nullptr,
         Options options = {});
  ~StreamTransport() override;

  /// Acknowledge every segment at once (TCP_QUICKACK after each read). For
  /// peers that send a message in two writes without TCP_NODELAY (ORC's FD
  /// transport: llvm-jitlink-executor, catalyst-executor), whose second write
  /// otherwise waits for the delayed ACK of the first, 40 ms a message.
  void setQuickAck(bool on) { stream->setQuickAck(on); }

  /// The largest message body (or peer arena) a transport of this process
  /// accepts; a larger header ends the session with an error that says so.
  /// Unlimited unless set (executor-server sets --max-message-size).
  static void setMaxMessageSize(uint64_t bytes);
  static uint64_t maxMessageSize();
  /// The error for a message of `size` bytes over the limit; also kept as
  /// the process's lastRefusal() (a session whose first message is too
  /// large ends before ORC can report why).
  static std::string oversizeMessage(uint64_t size);
  static std::string lastRefusal();

  /// Over TLS: its cipher suite and which directions kernel TLS carries
  /// ("TLS_AES_256_GCM_SHA384, kernel TLS: none"); "" otherwise.
  std::string tlsDescription() const { return stream->security(); }

  /// Whether the session's connection has ended (a lie or a stall ended it,
  /// the peer went, or this side disconnected).
  bool ended() {
    std::lock_guard<std::mutex> lock(mutex);
    return closed || disconnected;
  }
  /// The message of an error Hangup the peer sent, or "" (or, once the
  /// connection broke or stalled, what happened to it).
  std::string hangupMessage() const;
  /// Whether hangupMessage() is the peer's own word: an error Hangup came.
  bool hungUpByPeer() const;
  /// What was wrong with the peer's message that ended the session (a
  /// malformed header or opcode, shared memory that is not a sealed memfd of
  /// the size it said), or "" when none did.
  std::string malformedMessage() const;

  /// Sends a Hangup carrying the error `message` before the process ends
  /// (no blocking lock: it gives up after about 2 s if another thread keeps
  /// sending, and after about 1 s more if the peer does not take the
  /// bytes). Later sends from other threads wait for ever, so nothing
  /// follows it on the wire. Not from a signal handler (Stream::
  /// writeBeforeExit).
  void sendHangupBeforeExit(const char *message, size_t size);
  /// The process ends now (_exit) with this transport in use: its threads
  /// are detached, as nothing will join them.
  void detachThreadsAtExit();

  llvm::Error start() override;
  llvm::Error sendMessage(llvm::orc::SimpleRemoteEPCOpcode opcode,
                          uint64_t seqNo, llvm::orc::ExecutorAddr tagAddr,
                          llvm::ArrayRef<char> argBytes) override;
  void disconnect() override;

  /// Calls the wrapper function at `function` on the peer with the request
  /// gathered from `parts`; returns its reply. Fails when the connection
  /// goes first, or when no reply has come within `timeout` (0: no limit;
  /// the connection is closed then, which ends the session and its kernel
  /// on executor-server).
  llvm::Expected<llvm::orc::shared::WrapperFunctionBuffer>
  callDirect(uint64_t function, uint32_t flags, llvm::ArrayRef<iovec> parts,
             std::chrono::milliseconds timeout = {});
  /// The reply to direct call `seq`, gathered from `parts`.
  llvm::Error replyDirect(uint64_t seq, llvm::ArrayRef<iovec> parts);

  /// Returns once `ready()` holds (it is checked under the transport's lock;
  /// make it true with complete()) or the connection is gone; reads the
  /// socket meanwhile whenever no other thread does. With a `timeout`
  /// (not 0), returns false when it passes first.
  bool waitUntil(llvm::function_ref<bool()> ready,
                 std::chrono::milliseconds timeout = {});
  /// Runs `update` under the transport's lock and wakes waitUntil.
  void complete(llvm::function_ref<void()> update);

  /// Shared memory (Unix sockets only): this side's arena, which one user
  /// at a time writes under arenaMutex(); offerArena() sends the peer a new
  /// arena's descriptor before the first message that refers to it. The
  /// peer's arena is where its messages' shared buffers are.
  bool sharesMemory() const { return stream->passesDescriptors(); }
  SharedArena &ownArena() { return own; }
  std::mutex &arenaMutex() { return ownMutex; }
  llvm::Error offerArena();
  /// The same for other shared memory this side writes (`fd` of `size`
  /// bytes, offered once): the peer's arena from then on.
  llvm::Error offerArena(int fd, uint64_t size);
  const SharedArena &peerArena() const { return peer; }

private:
  StreamTransport(llvm::orc::SimpleRemoteEPCTransportClient &client,
               std::unique_ptr<Stream> stream, Options options)
      : client(client), stream(std::move(stream)),
        options(std::move(options)) {}

  struct Message {
    uint64_t opcode = 0;
    uint64_t seq = 0;
    uint64_t tag = 0;
    llvm::orc::shared::WrapperFunctionBuffer body;
  };
  /// Sends one message of `parts` (and `passFd` with SCM_RIGHTS if >= 0).
  llvm::Error sendFrame(uint64_t opcode, uint64_t seq, uint64_t tag,
                        llvm::ArrayRef<iovec> parts, int passFd = -1);
  /// Reads one message; only the thread holding the reading role calls it.
  /// 1: a message; 0: nothing to read (only with `poll`); -1: the end
  /// (`err` says why, success when the peer closed between messages).
  int readOne(Message &m, bool poll, llvm::Error &err);
  /// Whether bytes already read wait in this side's buffers (the reader's
  /// or the stream's): the socket may be quiet then.
  bool buffered();
  /// Waits up to `ms` for something to read; false when nothing came.
  bool waitReadable(int ms);
  /// The error for a malformed message from the peer, kept for
  /// malformedMessage().
  llvm::Error peerMalformed(const llvm::Twine &message);
  /// Handles a message that is not a direct call; false at the session's end.
  bool dispatch(Message &m, llvm::Error &err);
  /// The client's side: an ORC message from the executor that ORC's handling
  /// would choke on is an error (see above).
  llvm::Error checkOrcMessage(const Message &m);
  /// Reads more of a message that began (as Stream::read, blocking), but
  /// returns -2 when nothing more came within stallTimeout.
  ssize_t readRest(char *into, size_t size);
  /// The error for a message that stopped coming (kept as hangupMessage()).
  llvm::Error stalled();
  /// Reads and handles one message (the caller holds the role): 1 when it
  /// did, 0 when nothing was there (only with `poll`: nothing is waited
  /// for), -1 at the end.
  int readAndDispatch(bool poll);
  void finish(llvm::Error err);
  void clientListen();
  void serveReads();
  void watchInlineCalls();
  /// The executor side's readers, once its Setup message is out.
  void startReading();

  llvm::orc::SimpleRemoteEPCTransportClient &client;
  std::unique_ptr<Stream> stream;
  Options options;
  std::mutex sendMutex;
  std::atomic<bool> disconnected{false};
  mutable std::mutex hangupMutex;
  std::string hangup, malformed;
  bool peerHangup = false;

  // Reading state: the role's holder only.
  std::vector<char> buffer;
  size_t begin = 0, end = 0;
  std::deque<int> receivedFds;

  // The ORC checks (client side): Setup seen, by the reading role; the calls
  // not yet answered (sequence number -> function) and the shapes of ORC's
  // results by function, under callsMutex.
  bool setupSeen = false;
  std::mutex callsMutex;
  struct SentCall {
    uint64_t function = 0;
    std::chrono::steady_clock::time_point sent;
  };
  std::unordered_map<uint64_t, SentCall> unanswered;
  std::unordered_map<uint64_t, const char *> resultShapes;
  /// How long until the oldest unanswered call of ORC's own services
  /// (lookups, memory, the dylib manager: never a kernel's run) is older
  /// than stallTimeout: 0 when it is, -1 when there is none (or no limit).
  int msUntilOrcCallOverdue();

  // Everything below: under `mutex`.
  std::mutex mutex;
  std::condition_variable wake, listenerWake;
  bool started = false, closed = false, roleTaken = false;
  bool listenerParked = false, listenerCalled = false;
  unsigned waiters = 0, activeCallers = 0, idleReaders = 0;
  std::chrono::steady_clock::time_point lingerUntil;
  struct DirectSlot {
    bool done = false;
    llvm::orc::shared::WrapperFunctionBuffer reply;
  };
  /// By sequence number (inline: a few calls in flight allocate nothing).
  llvm::SmallDenseMap<uint64_t, DirectSlot *, 8> pending;
  uint64_t nextDirect = 1;
  std::vector<std::thread> threads;
  /// The direct call the reading thread runs, if any (the executor's side).
  struct InlineCall {
    std::chrono::steady_clock::time_point start;
    bool handedOver = false;
  };
  InlineCall *running = nullptr;
  std::chrono::steady_clock::time_point lastInline;
  std::condition_variable watcherWake;
  bool watcherIdle = false;

  std::mutex ownMutex;
  SharedArena own, peer;
  uint64_t offeredGeneration = 0;
  int offeredFd = -1;
};

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_STREAMTRANSPORT_H
