//===- OneTripProtocol.cpp - executor-server's one-trip launch ------------===//
//
// executor-server publishes __executor_studio_launch, _note, _launch_async,
// _await and _store_asset (LaunchService, Wire.h). A launch is one round
// trip: the request carries the inputs' shapes and data (gathered from where
// they lie), the reply the results'. When the server also publishes
// kDirectCallsSymbol the calls go as the transport's direct calls, which the
// calling thread answers itself; on a Unix socket large inputs and results
// cross in shared memory, and kernels allocate through the server's heap
// there (kKernelAllocators).
//
//===----------------------------------------------------------------------===//
#include "LaunchProtocol.h"
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutorProcessControl.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {
namespace {

/// A message built in two passes: `fill(w)` runs once counting and once
/// writing into memory allocated to the exact size.
struct Message {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  ArrayRef<char> bytes() const { return ArrayRef<char>(data.get(), size); }
};
template <typename FillFn> Message buildMessage(FillFn fill) {
  Writer counter;
  fill(counter);
  Message m;
  m.size = counter.size();
  m.data.reset(new char[m.size]);
  Writer writer(m.data.get());
  fill(writer);
  return m;
}

void writeRequestHeader(Writer &w, ExecutorAddr entry,
                        const std::string &kernel, uint32_t nin,
                        uint32_t nout) {
  writeLaunchHeader(w, entry.getValue(), nin, nout, kernel);
}

class OneTripProtocol final : public LaunchProtocol {
public:
  OneTripProtocol(ExecutorClient::Impl &session,
                  const StringMap<ExecutorAddr> &published)
      : LaunchProtocol(session), published(published) {
    launchWrapper = published.lookup(kLaunchWrapperName);
    noteWrapper = published.lookup(kNoteWrapperName);
    launchAsyncWrapper = published.lookup(kLaunchAsyncWrapperName);
    awaitWrapper = published.lookup(kAwaitWrapperName);
    storeAssetWrapper = published.lookup(kStoreAssetWrapperName);
    direct = published.count(kDirectCallsSymbol) != 0;
  }

  ExecutorKind kind() const override { return ExecutorKind::ExecutorServer; }
  Error attach() override;
  Expected<std::vector<HostMemRef>> launch(const LaunchCall &call) override;
  Error launchDescriptors(const LaunchCall &call,
                          ArrayRef<DescriptorView> outputs) override;
  Expected<uint64_t> launchAsync(ExecutorAddr entry,
                                 const std::string &kernel) override;
  Error await(uint64_t token) override;
  Error storeAsset(const std::string &name, ArrayRef<char> bytes) override;
  void note(const std::string &message, bool wait) override;

private:
  /// A launch's reply; outputs in the executor's shared arena are read
  /// while `arena` (this side's) is held.
  struct LaunchReply {
    shared::WrapperFunctionBuffer reply;
    std::unique_lock<std::mutex> arena;
    const char *shared = nullptr;
    size_t sharedSize = 0;
  };
  /// One launch: a direct call, or the ORC wrapper call. Scalar inputs go
  /// as kScalarRank inputs; a scalar result's rank is kScalarRank in the
  /// call's output ranks (the wire's).
  Expected<LaunchReply> launchCall(const LaunchCall &call);
  /// Calls one of the server's wrapper functions; returns the reply (whose
  /// status says ok) or the error it reports, naming `what`.
  Expected<shared::WrapperFunctionBuffer>
  callExecutor(ExecutorAddr function, ArrayRef<char> request,
               const std::string &what) {
    auto reply = session.callRemote(function, request, what);
    if (!reply)
      return reply.takeError();
    if (Error err = session.replyStatus(*reply, what))
      return std::move(err);
    return std::move(*reply);
  }
  /// callExecutor, as a direct call when the transport has them (the
  /// server then answers before anything it starts can end the session).
  Expected<shared::WrapperFunctionBuffer>
  callServer(ExecutorAddr function, ArrayRef<char> request,
             const std::string &what) {
    if (!direct)
      return callExecutor(function, request, what);
    if (!session.open)
      return session.closed();
    iovec part{const_cast<char *>(request.data()), request.size()};
    auto reply = session.transport->callDirect(
        function.getValue(), 0, ArrayRef<iovec>(part), session.launchTimeout);
    if (!reply)
      return session.directFailed(what, reply.takeError());
    if (Error err = session.replyStatus(*reply, what))
      return std::move(err);
    return std::move(*reply);
  }

  const StringMap<ExecutorAddr> &published;
  ExecutorAddr launchWrapper, noteWrapper, launchAsyncWrapper, awaitWrapper,
      storeAssetWrapper;
  /// Whether launches go as the transport's direct calls.
  bool direct = false;
};

Error OneTripProtocol::attach() {
  if (!session.transport || !session.transport->sharesMemory())
    return Error::success();
  // Kernels allocate through the executor's heap in shared memory, so
  // their large results reach us without a copy there.
  SymbolMap allocators;
  for (const auto &names : kKernelAllocators) {
    auto it = published.find(names[1]);
    if (it == published.end())
      return Error::success();
    allocators[session.es->intern(names[0])] = ExecutorSymbolDef(
        it->second, JITSymbolFlags::Exported | JITSymbolFlags::Callable);
  }
  if (Error err = session.process->define(absoluteSymbols(std::move(allocators))))
    return session.error("cannot use its kernel heap: " +
                         toString(std::move(err)));
  return Error::success();
}

Expected<OneTripProtocol::LaunchReply>
OneTripProtocol::launchCall(const LaunchCall &call) {
  LaunchReply result;
  ExecutorAddr entry = call.entry;
  const std::string &kernel = call.kernel;
  ArrayRef<DescriptorView> inputs = call.inputs;
  ArrayRef<int64_t> inputElementSizes = call.inputElementSizes,
                    outputRanks = call.outputRanks,
                    outputElementSizes = call.outputElementSizes;
  // An input's rank word (a scalar's says so).
  auto rankWord = [&](size_t i) {
    return static_cast<uint32_t>(inputs[i].rank) |
           (call.scalarInput(i) ? kScalarRank : 0);
  };
  if (!direct) {
    Message request = buildMessage([&](Writer &w) {
      writeRequestHeader(w, entry, kernel, inputs.size(), outputRanks.size());
      for (size_t i = 0; i < inputs.size(); ++i) {
        w.put<uint32_t>(rankWord(i));
        w.put<uint32_t>(inputElementSizes[i]);
        for (int64_t d = 0; d < inputs[i].rank; ++d)
          w.put<int64_t>(inputs[i].size(d));
        w.putData(inputs[i], inputElementSizes[i]);
      }
      for (size_t i = 0; i < outputRanks.size(); ++i) {
        w.put<uint32_t>(outputRanks[i]);
        w.put<uint32_t>(outputElementSizes[i]);
      }
    });
    auto reply =
        callExecutor(launchWrapper, request.bytes(), "launch of " + kernel);
    if (!reply)
      return reply.takeError();
    result.reply = std::move(*reply);
    return std::move(result);
  }
  if (!session.open)
    return session.closed();
  StreamTransport *transport = session.transport;
  // A direct call gathered from the metadata and each input's data where it
  // lies.
  GatherMessage message;
  {
    Writer counter;
    writeRequestHeader(counter, entry, kernel, inputs.size(),
                       outputRanks.size());
    Writer writer(message.reserve(counter.size()));
    writeRequestHeader(writer, entry, kernel, inputs.size(),
                       outputRanks.size());
  }
  // On a Unix socket, large inputs are copied once into this side's arena,
  // and the executor may put large results in its own: held for the call.
  uint32_t flags = 0;
  SmallVector<uint64_t, 8> sharedAt(inputs.size(), ~0ull);
  if (transport->sharesMemory()) {
    result.arena =
        std::unique_lock<std::mutex>(transport->arenaMutex(), std::try_to_lock);
    if (result.arena.owns_lock()) {
      flags |= kDirectMayShareReply;
      uint64_t total = 0;
      for (size_t i = 0; i < inputs.size(); ++i) {
        uint64_t bytes = inputs[i].numElements() * inputElementSizes[i];
        if (bytes < kShareAbove)
          continue;
        sharedAt[i] = total;
        total = (total + bytes + kDataAlignment - 1) / kDataAlignment *
                kDataAlignment;
      }
      std::string why;
      if (total && !transport->ownArena().reserve(total, why))
        sharedAt.assign(inputs.size(), ~0ull);
      else if (total)
        if (Error err = transport->offerArena())
          return session.lost("launch of " + kernel, toString(std::move(err)));
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const DescriptorView &in = inputs[i];
    int64_t elt = inputElementSizes[i];
    message.put32(rankWord(i));
    message.put32(static_cast<uint32_t>(elt));
    for (int64_t d = 0; d < in.rank; ++d)
      message.put64(static_cast<uint64_t>(in.size(d)));
    uint64_t bytes = static_cast<uint64_t>(in.numElements() * elt);
    const char *first = in.aligned() + in.offset() * elt;
    if (sharedAt[i] != ~0ull) {
      message.put64(bytes | kSharedData);
      message.put64(sharedAt[i]);
      gatherDense(in, elt, first, transport->ownArena().data() + sharedAt[i]);
      continue;
    }
    message.put64(bytes);
    message.alignData();
    if (bytes == 0)
      continue;
    if (!in.isDense()) {
      char *staged = message.stage(bytes);
      gatherDense(in, elt, first, staged);
      first = staged;
    }
    message.addData(first, bytes);
  }
  for (size_t i = 0; i < outputRanks.size(); ++i) {
    message.put32(static_cast<uint32_t>(outputRanks[i]));
    message.put32(static_cast<uint32_t>(outputElementSizes[i]));
  }
  auto parts = message.parts();
  auto reply = transport->callDirect(launchWrapper.getValue(), flags, parts,
                                     session.launchTimeout);
  if (!reply)
    return session.directFailed("launch of " + kernel, reply.takeError());
  // (The kernel's name is put into words only on an error.)
  uint64_t status = kReplyError;
  if (reply->size() >= sizeof(status))
    std::memcpy(&status, reply->data(), sizeof(status));
  if (status != kReplyOk)
    if (Error err = session.replyStatus(*reply, "launch of " + kernel))
      return std::move(err);
  result.reply = std::move(*reply);
  // Only the call that holds this side's arena may have its results in
  // the peer's (kDirectMayShareReply); meanwhile another thread's reading
  // may adopt a new peer arena for that call (found by TSan).
  if (result.arena.owns_lock()) {
    result.shared = transport->peerArena().data();
    result.sharedSize = transport->peerArena().size();
  }
  return std::move(result);
}

namespace {
/// The results' rank words as the request carries them: a scalar result's
/// says so (kScalarRank).
SmallVector<int64_t, 8> wireRanks(const LaunchCall &call) {
  SmallVector<int64_t, 8> ranks(call.outputRanks.begin(),
                                call.outputRanks.end());
  for (size_t i = 0; i < ranks.size(); ++i)
    if (call.scalarOutput(i))
      ranks[i] = kScalarRank;
  return ranks;
}
} // namespace

Expected<std::vector<HostMemRef>>
OneTripProtocol::launch(const LaunchCall &call) {
  SmallVector<int64_t, 8> ranks = wireRanks(call);
  LaunchCall wire = call;
  wire.outputRanks = ranks;
  auto reply = launchCall(wire);
  if (!reply)
    return reply.takeError();
  ArrayRef<int64_t> outputElementSizes = call.outputElementSizes;
  SmallVector<ReplyMemRef, 4> placed;
  std::string problem =
      readLaunchReply(reply->reply.data(), reply->reply.size(), reply->shared,
                      reply->sharedSize, ranks, outputElementSizes, placed);
  if (!problem.empty())
    return session.malformed("launch of " + call.kernel, problem);
  // What the caller gets: its own copy of each result.
  std::vector<HostMemRef> outputs(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) {
    HostMemRef &out = outputs[i];
    out.sizes.assign(placed[i].sizes.begin(), placed[i].sizes.end());
    out.elementSize = outputElementSizes[i];
    out.bytes.assign(placed[i].data, placed[i].data + placed[i].bytes);
    out.scalar = call.scalarOutput(i);
  }
  return outputs;
}

Error OneTripProtocol::launchDescriptors(const LaunchCall &call,
                                         ArrayRef<DescriptorView> outputs) {
  SmallVector<int64_t, 8> ranks = wireRanks(call);
  LaunchCall wire = call;
  wire.outputRanks = ranks;
  auto launched = launchCall(wire);
  if (!launched)
    return launched.takeError();
  shared::WrapperFunctionBuffer *reply = &launched->reply;
  // The largest output takes over the reply buffer itself (malloc'ed by the
  // transport; its data is 16-byte aligned in it), so the program frees it
  // with the descriptor's allocated pointer and the bulk of the data is not
  // copied again. The other outputs are copied out.
  SmallVector<ReplyMemRef, 4> placed;
  std::string problem =
      readLaunchReply(reply->data(), reply->size(), launched->shared,
                      launched->sharedSize, ranks,
                      call.outputElementSizes, placed);
  if (!problem.empty())
    return session.malformed("launch of " + call.kernel, problem);
  size_t largest = 0;
  bool inReplyLargest = false;
  for (size_t i = 0; i < outputs.size(); ++i) {
    // Only data in the reply itself can be taken over.
    // (A scalar is stored where its output points, never adopted.)
    bool inReply = !call.scalarOutput(i) && placed[i].data >= reply->data() &&
                   placed[i].data < reply->data() + reply->size();
    if (inReply && (!inReplyLargest || placed[i].bytes > placed[largest].bytes)) {
      largest = i;
      inReplyLargest = true;
    }
  }
  bool adopt = inReplyLargest &&
               reply->size() > sizeof(shared::CWrapperFunctionBuffer{}.Data);
  for (size_t i = 0; i < outputs.size(); ++i) {
    DescriptorView out = outputs[i];
    if (adopt && i == largest)
      continue;
    if (call.scalarOutput(i)) {
      // readLaunchReply measured it: one value of the size asked for.
      std::memcpy(out.base, placed[i].data, placed[i].bytes);
      continue;
    }
    void *memory = std::malloc(placed[i].bytes ? placed[i].bytes : 1);
    std::memcpy(memory, placed[i].data, placed[i].bytes);
    out.setDense(memory, placed[i].sizes.data());
  }
  if (adopt) {
    DescriptorView out = outputs[largest];
    size_t offset = placed[largest].data - reply->data();
    char *block = reply->release().Data.ValuePtr;
    char *data = block + offset;
    out.setDense(data, placed[largest].sizes.data());
    static_cast<void **>(out.base)[0] = block; // what free() gets
  }
  return Error::success();
}

Expected<uint64_t> OneTripProtocol::launchAsync(ExecutorAddr entry,
                                                const std::string &kernel) {
  // The executor starts the kernel on a thread of its own and answers with a
  // ticket at once; await asks for the ticket's end.
  Message request = buildMessage(
      [&](Writer &w) { writeRequestHeader(w, entry, kernel, 0, 0); });
  auto reply = callServer(launchAsyncWrapper, request.bytes(),
                          "launch_async of " + kernel);
  if (!reply)
    return reply.takeError();
  Reader r(reply->data(), reply->size());
  uint64_t status, ticket = 0;
  if (!r.get(status) || !r.get(ticket))
    return session.malformed("launch_async of " + kernel,
                             "it has " + Twine(reply->size()) +
                                 " bytes, not a status and a ticket");
  return ticket;
}

Error OneTripProtocol::await(uint64_t token) {
  auto reply = callExecutor(
      awaitWrapper,
      ArrayRef<char>(reinterpret_cast<const char *>(&token), sizeof(token)),
      "await of launch token " + std::to_string(token));
  return reply ? Error::success() : reply.takeError();
}

Error OneTripProtocol::storeAsset(const std::string &name,
                                  ArrayRef<char> bytes) {
  Message request = buildMessage([&](Writer &w) {
    w.put<uint32_t>(name.size());
    if (char *dst = w.reserve(name.size()))
      std::memcpy(dst, name.data(), name.size());
    if (char *dst = w.reserve(bytes.size()))
      std::memcpy(dst, bytes.data(), bytes.size());
  });
  auto reply = callExecutor(storeAssetWrapper, request.bytes(),
                            "storing asset '" + name + "'");
  return reply ? Error::success() : reply.takeError();
}

void OneTripProtocol::note(const std::string &message, bool wait) {
  ArrayRef<char> bytes(message.data(), message.size());
  if (!wait) {
    if (session.open)
      session.callAndForget(noteWrapper, bytes);
    return;
  }
  consumeError(callExecutor(noteWrapper, bytes, "note").takeError());
}

} // namespace

std::unique_ptr<LaunchProtocol>
makeOneTripProtocol(ExecutorClient::Impl &session,
                    const StringMap<ExecutorAddr> &published) {
  for (const char *name :
       {kLaunchWrapperName, kNoteWrapperName, kLaunchAsyncWrapperName,
        kAwaitWrapperName, kStoreAssetWrapperName})
    if (!published.count(name))
      return nullptr;
  return std::make_unique<OneTripProtocol>(session, published);
}

} // namespace executor_studio::runtime
