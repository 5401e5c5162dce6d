//===- StreamTransport.cpp - SimpleRemoteEPC messages over a Stream -------===//
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/Shared/OrcRTBridge.h"
#include "llvm/Support/Endian.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <optional>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {

namespace {
constexpr size_t kHeaderSize = 4 * sizeof(uint64_t);
constexpr size_t kReadBuffer = 64 * 1024;
/// readRest: no more of the message came within the stall time-out.
constexpr ssize_t kStalled = -2;
/// Opcodes of our own, beside ORC's (0 to 3); a direct call's flags ride in
/// the opcode word's bits 8 to 39.
constexpr uint64_t kDirectCall = 0x40;
constexpr uint64_t kDirectReply = 0x41;
constexpr uint64_t kShareArena = 0x42;
/// How long the background reader leaves the socket to waiting callers
/// after the last one left (a burst of launches never wakes it).
constexpr auto kLinger = std::chrono::milliseconds(2);
/// On the executor: a direct call that runs this long on the reading
/// thread has the reading passed on to another thread; the watcher that
/// checks sleeps for good after this long without calls.
constexpr auto kPassReadingAfter = std::chrono::milliseconds(1);
constexpr auto kWatchIdleAfter = std::chrono::milliseconds(100);

Error transportError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

std::string stallMessage(std::chrono::milliseconds limit) {
  return "the executor stopped in the middle of a message: no more of it "
         "within " + std::to_string(limit.count()) +
         " ms (the liveness time-out, EXECUTOR_LIVENESS_TIMEOUT)";
}

/// SPS bytes walked by a shape (ORC's encoding, SimplePackedSerialization.h),
/// without building anything: 'b' a byte, 'h' 2, 'i' 4, 'q' 8 (an address);
/// 's' a string or a sequence of bytes (u64 length, the bytes); '[X]' a
/// sequence of X; '(X...)' a tuple; '?X' an optional; 'EX' an Expected of X
/// (bool; X, or the error's string); 'R' an Error (bool; the string).
/// Only a length larger than the bytes left is a lie (ORC would reserve it:
/// std::bad_alloc); bytes that end early ORC reports itself.
class SpsWalk {
public:
  SpsWalk(const char *data, size_t size) : at(data), left(size) {}
  /// False on a lie (`lie` says which); walks nothing more once the bytes
  /// end.
  bool walk(const char *&shape) {
    switch (char c = *shape++) {
    case 'b': return take(1);
    case 'h': return take(2);
    case 'i': return take(4);
    case 'q': return take(8);
    case 's': {
      uint64_t n;
      return length(n) ? take(n) : lie.empty();
    }
    case '[': {
      uint64_t n;
      const char *element = shape;
      skip(shape, ']');
      if (!length(n))
        return lie.empty();
      for (uint64_t i = 0; i < n && left; ++i) {
        const char *s = element;
        if (!walk(s))
          return false;
      }
      return true;
    }
    case '(':
      while (*shape != ')')
        if (!walk(shape))
          return false;
      ++shape;
      return true;
    case '?':
    case 'E':
    case 'R': {
      bool set = left && *at != 0;
      if (!take(1))
        return true;
      if (c == 'R') {
        if (!set)
          return true;
        const char *str = "s";
        return walk(str);
      }
      const char *payload = shape;
      skipOne(shape);
      if (set)
        return walk(payload);
      if (c == 'E') {
        const char *str = "s";
        return walk(str);
      }
      return true;
    }
    default:
      return true;
    }
  }
  /// A u64 length that is not more than the bytes left after it (each
  /// element of an SPS sequence takes at least one); false when the bytes
  /// end first or on a lie (then `lie` is set).
  bool length(uint64_t &n) {
    if (left < 8) {
      left = 0;
      return false;
    }
    n = support::endian::read64le(at);
    at += 8;
    left -= 8;
    if (n > left) {
      lie = "a length of " + std::to_string(n) + " where " +
            std::to_string(left) + " bytes are left";
      left = 0;
      return false;
    }
    return true;
  }
  bool take(uint64_t n) {
    n = std::min<uint64_t>(n, left);
    at += n;
    left -= n;
    return lie.empty();
  }
  /// A string, as length() reads it; empty when the bytes end.
  StringRef string() {
    uint64_t n;
    if (!length(n))
      return {};
    StringRef s(at, n);
    take(n);
    return s;
  }
  uint64_t u64() {
    if (left < 8) {
      left = 0;
      return 0;
    }
    uint64_t v = support::endian::read64le(at);
    take(8);
    return v;
  }
  std::string lie;

private:
  static void skip(const char *&shape, char close) {
    while (*shape != close)
      skipOne(shape);
    ++shape;
  }
  static void skipOne(const char *&shape) {
    switch (*shape++) {
    case '[': skip(shape, ']'); return;
    case '(': skip(shape, ')'); return;
    case '?':
    case 'E': skipOne(shape); return;
    default: return;
    }
  }
  const char *at;
  size_t left;
};

/// The shapes of the results ORC deserializes from its own services
/// (OrcRTBridge.h, EPCGenericMemoryAccess.h), by bootstrap symbol.
const char *orcResultShape(StringRef symbol) {
  using namespace llvm::orc::rt;
  static const std::pair<const char *const *, const char *> shapes[] = {
      {&SimpleExecutorDylibManagerOpenWrapperName, "Eq"},
      {&SimpleExecutorDylibManagerResolveWrapperName, "E[?(qbb)]"},
      {&SimpleExecutorMemoryManagerReserveWrapperName, "Eq"},
      {&SimpleExecutorMemoryManagerInitializeWrapperName, "Eq"},
      {&SimpleExecutorMemoryManagerDeinitializeWrapperName, "R"},
      {&SimpleExecutorMemoryManagerReleaseWrapperName, "R"},
      {&ExecutorSharedMemoryMapperServiceReserveWrapperName, "E(qs)"},
      {&ExecutorSharedMemoryMapperServiceInitializeWrapperName, "Eq"},
      {&ExecutorSharedMemoryMapperServiceDeinitializeWrapperName, "R"},
      {&ExecutorSharedMemoryMapperServiceReleaseWrapperName, "R"},
      {&MemoryReadUInt8sWrapperName, "s"},
      {&MemoryReadUInt16sWrapperName, "[h]"},
      {&MemoryReadUInt32sWrapperName, "[i]"},
      {&MemoryReadUInt64sWrapperName, "[q]"},
      {&MemoryReadPointersWrapperName, "[q]"},
      {&MemoryReadBuffersWrapperName, "[s]"},
      {&MemoryReadStringsWrapperName, "[s]"},
      {&RunAsMainWrapperName, "q"},
      {&RunAsVoidFunctionWrapperName, "i"},
      {&RunAsIntFunctionWrapperName, "i"},
  };
  for (const auto &[name, shape] : shapes)
    if (symbol == *name)
      return shape;
  return nullptr;
}

std::atomic<uint64_t> messageLimit{UINT64_MAX};
std::mutex refusalMutex;
std::string refusal;
} // namespace

char DirectCallTimeout::ID = 0;
void DirectCallTimeout::log(raw_ostream &os) const {
  os << "no reply within " << limit.count() << " ms";
}


void StreamTransport::setMaxMessageSize(uint64_t bytes) { messageLimit = bytes; }

Error StreamTransport::peerMalformed(const Twine &message) {
  std::string text = message.str();
  {
    std::lock_guard<std::mutex> lock(hangupMutex);
    if (malformed.empty())
      malformed = text;
  }
  return transportError(text);
}

std::string StreamTransport::malformedMessage() const {
  std::lock_guard<std::mutex> lock(hangupMutex);
  return malformed;
}
uint64_t StreamTransport::maxMessageSize() { return messageLimit; }
std::string StreamTransport::oversizeMessage(uint64_t size) {
  std::string message = "a message of " + std::to_string(size) +
                        " bytes is larger than the limit of " +
                        std::to_string(messageLimit.load()) +
                        " bytes (executor-server --max-message-size)";
  std::lock_guard<std::mutex> lock(refusalMutex);
  refusal = message;
  return message;
}

std::string StreamTransport::lastRefusal() {
  std::lock_guard<std::mutex> lock(refusalMutex);
  return refusal;
}

Expected<std::unique_ptr<StreamTransport>>
StreamTransport::Create(SimpleRemoteEPCTransportClient &client,
                     std::unique_ptr<Stream> stream, StreamTransport **created,
                     Options options) {
  if (!stream || stream->fd() < 0)
    return transportError("no connection to frame messages over");
  std::unique_ptr<StreamTransport> transport(
      new StreamTransport(client, std::move(stream), std::move(options)));
  if (created)
    *created = transport.get();
  return std::move(transport);
}

std::string StreamTransport::hangupMessage() const {
  std::lock_guard<std::mutex> lock(hangupMutex);
  return hangup;
}

bool StreamTransport::hungUpByPeer() const {
  std::lock_guard<std::mutex> lock(hangupMutex);
  return peerHangup;
}

void StreamTransport::sendHangupBeforeExit(const char *message,
                                               size_t size) {
  // The body is an SPSError: u8 has-error (1), u64 length, the bytes.
  char packet[kHeaderSize + 1 + 8 + kMaxCrashReportSize];
  if (size > kMaxCrashReportSize)
    size = kMaxCrashReportSize;
  size_t body = 1 + 8 + size;
  support::endian::write64le(packet, kHeaderSize + body);
  support::endian::write64le(packet + 8,
                             static_cast<uint64_t>(SimpleRemoteEPCOpcode::Hangup));
  support::endian::write64le(packet + 16, 0);
  support::endian::write64le(packet + 24, 0);
  packet[kHeaderSize] = 1;
  support::endian::write64le(packet + kHeaderSize + 1, size);
  std::memcpy(packet + kHeaderSize + 9, message, size);
  // Another thread may be in the middle of a message: wait for it, up to
  // 2 s, which a loaded machine can need (the crashing thread itself never
  // holds the lock while in a kernel). The lock stays taken: the process is
  // about to end.
  if (!tryLockFor(sendMutex, 2000) || disconnected)
    return;
  stream->writeBeforeExit(packet, kHeaderSize + body);
}

void StreamTransport::detachThreadsAtExit() {
  std::lock_guard<std::mutex> lock(mutex);
  for (std::thread &t : threads)
    if (t.joinable())
      t.detach();
  threads.clear();
}

StreamTransport::~StreamTransport() {
  disconnect();
  std::vector<std::thread> all;
  {
    std::unique_lock<std::mutex> lock(mutex);
    // The readers end once they see the end of the stream.
    if (started)
      wake.wait_for(lock, std::chrono::seconds(10), [&] { return closed; });
    all.swap(threads);
  }
  for (std::thread &t : all) {
    if (t.get_id() == std::this_thread::get_id())
      t.detach();
    else
      t.join();
  }
  for (int passed : receivedFds)
    ::close(passed);
  stream.reset(); // closes the socket
}

Error StreamTransport::start() {
  buffer.resize(kReadBuffer);
  // The executor's side reads once its Setup message is out (sendMessage):
  // ORC's SimpleRemoteEPCServer::Create starts the transport before it
  // makes its services, and a reader that saw the client go at once shut
  // them down while they were being made (found by TSan:
  // SimpleExecutorDylibManager::shutdown against its constructor).
  if (!options.executorSide) {
    std::lock_guard<std::mutex> lock(mutex);
    started = true;
    threads.emplace_back([this] { clientListen(); });
  } else if (options.setupSent) {
    startReading();
  }
  return Error::success();
}

void StreamTransport::startReading() {
  std::lock_guard<std::mutex> lock(mutex);
  if (started)
    return;
  started = true;
  threads.emplace_back([this] { serveReads(); });
  threads.emplace_back([this] { watchInlineCalls(); });
}

Error StreamTransport::sendFrame(uint64_t opcode, uint64_t seq, uint64_t tag,
                              ArrayRef<iovec> parts, int passFd) {
  char header[kHeaderSize];
  size_t total = kHeaderSize;
  for (const iovec &part : parts)
    total += part.iov_len;
  support::endian::write64le(header, total);
  support::endian::write64le(header + 8, opcode);
  support::endian::write64le(header + 16, seq);
  support::endian::write64le(header + 24, tag);
  // (On the stack for a message of a few pieces: a launch's.)
  SmallVector<iovec, 16> iov;
  iov.push_back({header, kHeaderSize});
  for (const iovec &part : parts)
    if (part.iov_len)
      iov.push_back(part);
  std::lock_guard<std::mutex> lock(sendMutex);
  if (disconnected)
    return transportError("the session's connection is closed");
  return stream->write(iov.data(), iov.size(), passFd);
}

Error StreamTransport::sendMessage(SimpleRemoteEPCOpcode opcode, uint64_t seqNo,
                                ExecutorAddr tagAddr, ArrayRef<char> argBytes) {
  // A call's result is awaited before it can come.
  bool tracked = opcode == SimpleRemoteEPCOpcode::CallWrapper &&
                 !options.executorSide;
  if (tracked) {
    std::lock_guard<std::mutex> lock(callsMutex);
    unanswered[seqNo] = {tagAddr.getValue(), std::chrono::steady_clock::now()};
  }
  iovec body{const_cast<char *>(argBytes.data()), argBytes.size()};
  Error err = sendFrame(static_cast<uint64_t>(opcode), seqNo,
                        tagAddr.getValue(), ArrayRef<iovec>(body));
  if (err && tracked) {
    std::lock_guard<std::mutex> lock(callsMutex);
    unanswered.erase(seqNo);
  }
  // A Setup that cannot go out is not an error: the reader has seen why the
  // connection ended and reports it. (An error here makes ORC's
  // SimpleRemoteEPCServer::Create destroy the server while the reader is in
  // its handleDisconnect: a crash, when a client's first bytes are bad.)
  if (opcode == SimpleRemoteEPCOpcode::Setup && options.executorSide)
    startReading();
  if (err && opcode == SimpleRemoteEPCOpcode::Setup) {
    consumeError(std::move(err));
    return Error::success();
  }
  if (!err && opcode == SimpleRemoteEPCOpcode::CallWrapper &&
      !options.executorSide) {
    // Its result must be read even if no caller waits for it: wake the
    // background reader if it leaves the socket to callers.
    std::lock_guard<std::mutex> lock(mutex);
    listenerCalled = true;
    if (listenerParked)
      listenerWake.notify_one();
  }
  return err;
}

int StreamTransport::msUntilOrcCallOverdue() {
  if (!options.stallTimeout.count())
    return -1;
  std::lock_guard<std::mutex> lock(callsMutex);
  std::optional<std::chrono::steady_clock::time_point> oldest;
  for (const auto &[seq, call] : unanswered)
    if (resultShapes.count(call.function) && (!oldest || call.sent < *oldest))
      oldest = call.sent;
  if (!oldest)
    return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      *oldest + options.stallTimeout - std::chrono::steady_clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

void StreamTransport::disconnect() {
  if (disconnected.exchange(true))
    return;
  // Wakes the reader, whose recv then sees the end of the stream.
  stream->shutdown();
  std::lock_guard<std::mutex> lock(mutex);
  listenerCalled = true;
  listenerWake.notify_all();
}

Expected<shared::WrapperFunctionBuffer>
StreamTransport::callDirect(uint64_t function, uint32_t flags,
                         ArrayRef<iovec> parts,
                         std::chrono::milliseconds timeout) {
  DirectSlot slot;
  uint64_t seq;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (closed)
      return transportError("the session's connection is closed");
    seq = nextDirect++;
    pending[seq] = &slot;
  }
  if (Error err = sendFrame(kDirectCall | (uint64_t(flags) << 8), seq,
                            function, parts)) {
    std::lock_guard<std::mutex> lock(mutex);
    pending.erase(seq);
    return std::move(err);
  }
  if (!waitUntil([&] { return slot.done; }, timeout)) {
    // Given up: closing the connection ends the session (and the kernel).
    disconnect();
    {
      std::unique_lock<std::mutex> lock(mutex);
      pending.erase(seq);
    }
    return make_error<DirectCallTimeout>(timeout);
  }
  // A reply took the slot out of `pending` (dispatch) before waitUntil saw
  // it done; without one it is still there.
  if (!slot.done) {
    std::lock_guard<std::mutex> lock(mutex);
    pending.erase(seq);
    return transportError("the session's connection is closed");
  }
  if (slot.reply.getOutOfBandError())
    return transportError("the session's connection is closed");
  return std::move(slot.reply);
}

Error StreamTransport::replyDirect(uint64_t seq, ArrayRef<iovec> parts) {
  return sendFrame(kDirectReply, seq, 0, parts);
}

Error StreamTransport::offerArena() {
  if (own.generation() == offeredGeneration)
    return Error::success();
  uint64_t size = own.size();
  iovec body{&size, sizeof(size)};
  if (Error err = sendFrame(kShareArena, 0, 0, ArrayRef<iovec>(body), own.fd()))
    return err;
  offeredGeneration = own.generation();
  return Error::success();
}

Error StreamTransport::offerArena(int arenaFd, uint64_t size) {
  if (arenaFd == offeredFd)
    return Error::success();
  iovec body{&size, sizeof(size)};
  if (Error err = sendFrame(kShareArena, 0, 0, ArrayRef<iovec>(body), arenaFd))
    return err;
  offeredFd = arenaFd;
  return Error::success();
}

void StreamTransport::complete(function_ref<void()> update) {
  std::lock_guard<std::mutex> lock(mutex);
  update();
  if (waiters)
    wake.notify_all();
}

bool StreamTransport::buffered() {
  return end > begin || stream->hasPending();
}

bool StreamTransport::waitReadable(int ms) {
  if (buffered())
    return true;
  return pollFor(stream->fd(), POLLIN, ms) != 0;
}

bool StreamTransport::waitUntil(function_ref<bool()> ready,
                             std::chrono::milliseconds timeout) {
  // (The clock only for a time limit: a launch without one reads none.)
  auto deadline = timeout.count() ? std::chrono::steady_clock::now() + timeout
                                  : std::chrono::steady_clock::time_point();
  auto left = [&] {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    return ms.count() < 0 ? 0 : static_cast<int>(ms.count()) + 1;
  };
  bool timedOut = false;
  std::unique_lock<std::mutex> lock(mutex);
  ++activeCallers;
  while (!ready() && !closed) {
    if (!roleTaken) {
      // Nobody reads: read for everyone until our answer is in.
      roleTaken = true;
      lock.unlock();
      // With a time limit, wait for the socket only until it passes, and
      // only when a read would block (a reply already there costs no poll).
      bool more = true;
      int got = timeout.count() ? readAndDispatch(/*poll=*/true) : 0;
      if (got != 0)
        more = got > 0;
      else if (timeout.count() && !waitReadable(left()))
        timedOut = true;
      else
        more = readAndDispatch(false) > 0;
      bool leftover = end > begin;
      lock.lock();
      roleTaken = false;
      if (waiters)
        wake.notify_all();
      if (!more || timedOut)
        break;
      if (leftover && ready()) {
        // More messages are buffered and we are leaving: the background
        // reader takes them now.
        listenerCalled = true;
        if (listenerParked)
          listenerWake.notify_one();
      }
      continue;
    }
    ++waiters;
    if (timeout.count()) {
      if (wake.wait_until(lock, deadline) == std::cv_status::timeout &&
          !ready()) {
        --waiters;
        timedOut = true;
        break;
      }
    } else {
      wake.wait(lock);
    }
    --waiters;
  }
  --activeCallers;
  lingerUntil = std::chrono::steady_clock::now() + kLinger;
  return !timedOut || ready();
}

Error StreamTransport::stalled() {
  std::string text = stallMessage(options.stallTimeout);
  {
    // What the client reports, as the peer's word would be.
    std::lock_guard<std::mutex> lock(hangupMutex);
    if (hangup.empty())
      hangup = text;
  }
  return transportError(text);
}

ssize_t StreamTransport::readRest(char *into, size_t size) {
  if (!options.stallTimeout.count())
    return stream->read(into, size, false, receivedFds);
  // Reads what is there, and waits for more only until the time-out (over
  // TLS, bytes of a record that is not whole yet give nothing to read).
  while (true) {
    ssize_t got = stream->read(into, size, /*dontWait=*/true, receivedFds);
    if (got >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
      return got;
    // (An error or the end is for the read to report.)
    if (pollFor(stream->fd(), POLLIN,
                static_cast<int>(options.stallTimeout.count())) == 0)
      return kStalled;
  }
}

int StreamTransport::readOne(Message &m, bool poll, Error &err) {
  bool first = true;
  // The header.
  while (end - begin < kHeaderSize) {
    if (begin > 0) {
      std::memmove(buffer.data(), buffer.data() + begin, end - begin);
      end -= begin;
      begin = 0;
    }
    bool dontWait = poll && first && end == 0;
    first = false;
    // Once a message began, the rest of it must come.
    ssize_t got = end != begin
                      ? readRest(buffer.data() + end, buffer.size() - end)
                      : stream->read(buffer.data() + end, buffer.size() - end,
                                     dontWait, receivedFds);
    if (got == kStalled) {
      err = stalled();
      return -1;
    }
    if (got < 0 && dontWait && (errno == EAGAIN || errno == EWOULDBLOCK))
      return 0;
    if (got <= 0) {
      if ((got < 0 && !disconnected) || end != begin)
        err = transportError(got < 0 ? stream->lastError()
                                     : "connection closed inside a message");
      return -1;
    }
    end += static_cast<size_t>(got);
  }
  const char *h = buffer.data() + begin;
  uint64_t size = support::endian::read64le(h);
  m.opcode = support::endian::read64le(h + 8);
  m.seq = support::endian::read64le(h + 16);
  m.tag = support::endian::read64le(h + 24);
  begin += kHeaderSize;
  if (size < kHeaderSize) {
    err = peerMalformed("malformed message: size " + Twine(size));
    return -1;
  }
  size_t bodySize = size - kHeaderSize;
  if (bodySize > maxMessageSize()) {
    err = transportError(oversizeMessage(size));
    return -1;
  }
  m.body = shared::WrapperFunctionBuffer::allocate(bodySize);
  if (bodySize > sizeof(shared::CWrapperFunctionBuffer{}.Data) &&
      !m.body.data()) {
    err = transportError("cannot allocate " + Twine(bodySize) +
                         " bytes for a message (out of memory)");
    return -1;
  }
  char *dst = bodySize ? m.body.data() : nullptr;
  size_t have = std::min(bodySize, end - begin);
  if (have)
    std::memcpy(dst, buffer.data() + begin, have);
  begin += have;
  // The rest of a large body goes straight into it.
  while (have < bodySize) {
    ssize_t got = readRest(dst + have, bodySize - have);
    if (got == kStalled) {
      err = stalled();
      return -1;
    }
    if (got <= 0) {
      err = transportError(got < 0 ? stream->lastError()
                                   : "connection closed inside a message");
      return -1;
    }
    have += static_cast<size_t>(got);
  }
  if (begin == end)
    begin = end = 0;
  return 1;
}

bool StreamTransport::dispatch(Message &m, Error &err) {
  uint64_t kind = m.opcode & 0xff;
  if (kind == kDirectReply) {
    // Only a number this side issued names a call (and never one of the
    // map's own empty and tombstone keys, which a peer could otherwise send).
    bool issued = false;
    complete([&] {
      issued = m.seq != 0 && m.seq < nextDirect;
      if (!issued)
        return;
      auto it = pending.find(m.seq);
      if (it != pending.end()) {
        it->second->reply = std::move(m.body);
        it->second->done = true;
        pending.erase(it);
      }
    });
    if (!issued) {
      err = peerMalformed("a reply to call " + Twine(m.seq) +
                          ", which was never made");
      return false;
    }
    return true;
  }
  if (kind == kShareArena) {
    uint64_t size = 0;
    if (m.body.size() != sizeof(size) || receivedFds.empty()) {
      err = peerMalformed("malformed shared-memory message");
      return false;
    }
    std::memcpy(&size, m.body.data(), sizeof(size));
    int passed = receivedFds.front();
    receivedFds.pop_front();
    if (size > maxMessageSize()) {
      ::close(passed);
      err = peerMalformed("shared memory of " + Twine(size) +
                           " bytes is larger than the message size limit of " +
                           Twine(maxMessageSize()) +
                           " bytes (executor-server --max-message-size)");
      return false;
    }
    std::string why;
    if (!peer.adopt(passed, size, why)) {
      err = peerMalformed(why);
      return false;
    }
    return true;
  }
  if (kind > static_cast<uint64_t>(SimpleRemoteEPCOpcode::LastOpC) ||
      (m.opcode >> 8) != 0) {
    err = peerMalformed("unknown message opcode " + Twine(m.opcode));
    return false;
  }
  auto opcode = static_cast<SimpleRemoteEPCOpcode>(kind);
  if (!options.executorSide)
    if (Error bad = checkOrcMessage(m)) {
      err = std::move(bad);
      return false;
    }
  if (opcode == SimpleRemoteEPCOpcode::Hangup && m.body.size() > 9 &&
      m.body.data()[0] == 1) {
    uint64_t length = support::endian::read64le(m.body.data() + 1);
    if (length <= m.body.size() - 9) {
      std::lock_guard<std::mutex> lock(hangupMutex);
      hangup.assign(m.body.data() + 9, length);
      peerHangup = true;
    }
  }
  auto action = client.handleMessage(opcode, m.seq, ExecutorAddr(m.tag),
                                     std::move(m.body));
  if (!action) {
    err = action.takeError();
    return false;
  }
  return *action != SimpleRemoteEPCTransportClient::EndSession;
}

Error StreamTransport::checkOrcMessage(const Message &m) {
  auto opcode = static_cast<SimpleRemoteEPCOpcode>(m.opcode);
  SpsWalk walk(m.body.data(), m.body.size());
  const char *shape = nullptr;
  switch (opcode) {
  case SimpleRemoteEPCOpcode::Setup: {
    // ORC's handler takes the pending call 0 for it: once only.
    if (setupSeen)
      return peerMalformed("a second Setup message in one session");
    setupSeen = true;
    // SimpleRemoteEPCExecutorInfo: the triple, the page size, the bootstrap
    // map (name -> bytes), the bootstrap symbols (name -> address).
    walk.string();
    walk.u64();
    uint64_t n = 0;
    if (walk.length(n))
      for (uint64_t i = 0; i < n && walk.lie.empty(); ++i) {
        walk.string();
        walk.string();
      }
    std::unordered_map<uint64_t, const char *> shapes;
    if (walk.lie.empty() && walk.length(n))
      for (uint64_t i = 0; i < n && walk.lie.empty(); ++i) {
        StringRef name = walk.string();
        uint64_t address = walk.u64();
        if (const char *known = orcResultShape(name))
          shapes[address] = known;
      }
    if (!walk.lie.empty())
      return peerMalformed("the Setup message has " + walk.lie);
    std::lock_guard<std::mutex> lock(callsMutex);
    resultShapes = std::move(shapes);
    return Error::success();
  }
  case SimpleRemoteEPCOpcode::Hangup:
    shape = "R"; // an SPSError
    break;
  case SimpleRemoteEPCOpcode::Result: {
    if (!setupSeen)
      return peerMalformed("a result before the Setup message");
    std::lock_guard<std::mutex> lock(callsMutex);
    auto call = unanswered.find(m.seq);
    if (call == unanswered.end())
      return peerMalformed("a result for call " + Twine(m.seq) +
                           ", which this side did not make or had answered "
                           "already");
    auto known = resultShapes.find(call->second.function);
    if (known != resultShapes.end())
      shape = known->second;
    unanswered.erase(call);
    break;
  }
  case SimpleRemoteEPCOpcode::CallWrapper:
    // ORC hands such a call to the ExecutionSession's JIT dispatch handlers,
    // which this client has none of (and, during open, no session yet: a
    // null dereference in runJITDispatchHandler; fuzz-orc-client found it).
    return peerMalformed("a call from the executor to function 0x" +
                         Twine::utohexstr(m.tag) +
                         ", and this client serves no calls");
  }
  if (shape && !walk.walk(shape))
    return peerMalformed(
        (opcode == SimpleRemoteEPCOpcode::Hangup ? "a Hangup message with "
                                                  : "a result with ") +
        walk.lie);
  return Error::success();
}

int StreamTransport::readAndDispatch(bool poll) {
  Message m;
  Error err = Error::success();
  int got = readOne(m, poll, err);
  if (got == 0)
    return 0;
  if (got > 0 && (m.opcode & 0xff) == kDirectCall) {
    err = peerMalformed("a direct call reached the client");
    got = -1;
  }
  if (got > 0 && dispatch(m, err))
    return 1;
  finish(std::move(err));
  return -1;
}

void StreamTransport::finish(Error err) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (closed) {
      consumeError(std::move(err));
      return;
    }
    closed = true;
    if (err) {
      // What the client reports for its pending calls (ORC says only
      // "disconnecting"), unless the peer said more.
      std::string why = toString(std::move(err));
      {
        std::lock_guard<std::mutex> hangupLock(hangupMutex);
        if (hangup.empty())
          hangup = "the connection broke: " + why;
      }
      err = transportError(why);
    }
    // Direct calls still waiting fail (their slot stays not done).
    wake.notify_all();
    listenerWake.notify_all();
    watcherWake.notify_all();
  }
  disconnect();
  client.handleDisconnect(std::move(err));
}

void StreamTransport::clientListen() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!closed) {
    // Callers read for themselves while they wait; leave them the socket,
    // and a little longer after the last one, unless an ORC call needs its
    // answer read.
    auto now = std::chrono::steady_clock::now();
    if (activeCallers > 0 || roleTaken ||
        (!listenerCalled && now < lingerUntil)) {
      listenerParked = true;
      listenerWake.wait_until(lock, activeCallers > 0 || roleTaken
                                        ? now + 10 * kLinger
                                        : lingerUntil);
      listenerParked = false;
      continue;
    }
    listenerCalled = false;
    roleTaken = true;
    lock.unlock();
    // Messages already buffered are read before waiting for the socket.
    if (!buffered()) {
      lock.lock();
      roleTaken = false;
      if (waiters)
        wake.notify_all();
      lock.unlock();
      // An executor that never answers a call of ORC's own services
      // (during open or send_binary) is not waited for longer than the
      // liveness time-out: the session ends, saying so. (A call sent while
      // this waits is seen at the next look, a time-out later at most.)
      int overdueIn = msUntilOrcCallOverdue();
      int ready = pollFor(stream->fd(), POLLIN,
                          overdueIn >= 0 ? overdueIn
                          : options.stallTimeout.count()
                              ? static_cast<int>(options.stallTimeout.count())
                              : -1);
      if (ready == 0 && msUntilOrcCallOverdue() == 0) {
        {
          std::lock_guard<std::mutex> hangupLock(hangupMutex);
          if (hangup.empty())
            hangup = "the executor did not answer a call of ORC's within " +
                     std::to_string(options.stallTimeout.count()) +
                     " ms (the liveness time-out, EXECUTOR_LIVENESS_TIMEOUT)";
        }
        disconnect();
      }
      lock.lock();
      if (closed)
        break;
      if (ready <= 0 || activeCallers > 0 || roleTaken)
        continue;
      roleTaken = true;
      lock.unlock();
    }
    bool more = readAndDispatch(true) >= 0;
    lock.lock();
    roleTaken = false;
    if (waiters)
      wake.notify_all();
    if (!more)
      break;
  }
}

void StreamTransport::serveReads() {
  std::unique_lock<std::mutex> lock(mutex);
  while (true) {
    ++idleReaders;
    wake.wait(lock, [&] { return !roleTaken || closed; });
    --idleReaders;
    if (closed)
      return;
    roleTaken = true;
    // Read until the session ends or the watcher passes the reading on
    // while this thread runs a long call.
    while (true) {
      lock.unlock();
      Message m;
      Error err = Error::success();
      int got = readOne(m, false, err);
      if (got > 0 && (m.opcode & 0xff) == kDirectCall &&
          !options.directHandler) {
        err = transportError("a direct call, which this executor does not "
                             "serve");
        got = -1;
      }
      if (got > 0 && (m.opcode & 0xff) == kDirectCall) {
        // Run it here, at once: no hand-over to another thread.
        InlineCall call;
        call.start = std::chrono::steady_clock::now();
        lock.lock();
        running = &call;
        lastInline = call.start;
        if (watcherIdle)
          watcherWake.notify_one();
        lock.unlock();
        options.directHandler(*this, m.seq, m.tag,
                              static_cast<uint32_t>(m.opcode >> 8),
                              std::move(m.body));
        lock.lock();
        if (call.handedOver)
          break; // another thread reads now
        running = nullptr;
        continue;
      }
      bool more = got > 0 && dispatch(m, err);
      if (!more) {
        finish(std::move(err));
        lock.lock();
        roleTaken = false;
        return;
      }
      lock.lock();
    }
  }
}

void StreamTransport::watchInlineCalls() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!closed) {
    auto now = std::chrono::steady_clock::now();
    if (!running && now - lastInline > kWatchIdleAfter) {
      // Nothing runs: sleep until a call starts (one wake per burst).
      watcherIdle = true;
      watcherWake.wait(lock);
      watcherIdle = false;
      continue;
    }
    watcherWake.wait_for(lock, kPassReadingAfter);
    now = std::chrono::steady_clock::now();
    if (running && now - running->start >= kPassReadingAfter) {
      // A long call: the session's other calls must not wait for it.
      running->handedOver = true;
      running = nullptr;
      roleTaken = false;
      if (idleReaders > 0)
        wake.notify_one();
      else if (!closed)
        threads.emplace_back([this] { serveReads(); });
    }
  }
}

} // namespace executor_studio::runtime
