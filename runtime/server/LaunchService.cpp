//===- LaunchService.cpp - the executor side of a launch ------------------===//
//
// `__executor_studio_launch` is an ORC wrapper function the server publishes
// as a bootstrap symbol. It unpacks one launch request (Wire.h), builds the
// memref descriptors in local memory, calls the kernel's
// `_catalyst_pyface_<entry>(results, args)`, packs the results into the
// reply and frees what the kernel allocated for them.
//
//===----------------------------------------------------------------------===//
#include "LaunchService.h"
#include "CrashReport.h"
#include "KernelHeap.h"
#include "Limits.h"
#include "LogText.h"
#include "ExecutorRuntime/Plugin.h"
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/Shared/WrapperFunctionUtils.h"

#include <atomic>
#include <sys/mman.h>
#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <future>
#include <cerrno>
#include <memory>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <string>
#include <vector>

using namespace llvm::orc::shared;

// Plugins write replies with Plugin.h's struct; ORC reads them as its own.
static_assert(sizeof(ExecutorWrapperBuffer) == sizeof(CWrapperFunctionBuffer) &&
                  offsetof(ExecutorWrapperBuffer, Size) ==
                      offsetof(CWrapperFunctionBuffer, Size),
              "Plugin.h must match ORC's CWrapperFunctionBuffer");

namespace executor_studio::runtime {

std::atomic<bool> logLaunches{true};
std::string sessionLabel = "session";

namespace {
/// MLIR marks memref.get_global results with this "allocated" pointer.
void *const kGlobalMarker = reinterpret_cast<void *>(0xdeadbeef);

/// A reply: kReplyOk, then what `fill` writes (sized first, then written
/// once into memory allocated for it).
template <typename FillFn> CWrapperFunctionBuffer replyWith(FillFn fill) {
  auto all = [&](Writer &w) {
    w.put<uint64_t>(kReplyOk);
    fill(w);
  };
  Writer counter;
  all(counter);
  WrapperFunctionBuffer reply = WrapperFunctionBuffer::allocate(counter.size());
  Writer writer(reply.data());
  all(writer);
  return reply.release();
}


/// Requests that are one u64.
bool readWord(const char *data, size_t size, uint64_t &word) {
  Reader r(data, size);
  return r.get(word) && r.done();
}

} // namespace

CWrapperFunctionBuffer replyEmpty() {
  return replyWith([](Writer &) {});
}

CWrapperFunctionBuffer failWith(const std::string &message) {
  logEvent("error: " + message);
  std::vector<char> bytes(sizeof(uint64_t) + message.size());
  uint64_t status = kReplyError;
  std::memcpy(bytes.data(), &status, sizeof(status));
  std::memcpy(bytes.data() + sizeof(status), message.data(), message.size());
  return WrapperFunctionBuffer::copyFrom(bytes.data(), bytes.size()).release();
}

std::string entryAt(uint64_t address) {
  char text[48];
  std::snprintf(text, sizeof(text), "the entry at 0x%llx",
                static_cast<unsigned long long>(address));
  return text;
}

int logDescriptor = STDERR_FILENO;

bool writeAllTo(int fd, const char *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

void logEvent(const std::string &message) {
  // Messages carry client text (object and kernel names, notes): escaped.
  // One write a line: lines of the session's threads never interleave.
  std::string line = "executor-server: " + sessionLabel + ": " +
                     escapeLogText(message) + "\n";
  if (logDescriptor == STDERR_FILENO)
    std::fflush(stderr);
  (void)!::write(logDescriptor, line.data(), line.size());
}

namespace {
/// One launch: the request parsed into descriptors, then the kernel's
/// results.
struct Launch : LaunchRequest {
  /// The kernel's results struct (on the stack for a few results).
  llvm::SmallVector<int64_t, 32> results;
  llvm::SmallVector<DescriptorView, 4> views;

  /// Reads the request (input data stays where it is: in the request, or in
  /// the client's shared arena); "" or what is malformed.
  std::string parse(const char *data, size_t size, const char *arena,
                    size_t arenaSize) {
    std::string problem =
        parseLaunchRequest(data, size, arena, arenaSize, *this);
    results.assign(resultBytes / 8 + 1, 0);
    return problem;
  }

  void run() {
    auto entry = reinterpret_cast<void (*)(void *, void *)>(
        static_cast<uintptr_t>(header.pyface));
    {
      RunningKernel running(header.name);
      entry(results.data(), args.data());
    }
    // A scalar's view is of rank 0 over its value (never read as a
    // descriptor: see isScalar).
    for (uint32_t i = 0; i < header.numOutputs; ++i)
      views.push_back({reinterpret_cast<char *>(results.data()) + outAt[i],
                       outRank[i] & ~kScalarRank});
  }
  bool isScalar(uint32_t i) const { return outRank[i] & kScalarRank; }

  /// "" or why the kernel's results cannot be sent: each descriptor it
  /// wrote is measured before anything is read or sized by it (a kernel
  /// with a bug must not take its session's memory with it).
  std::string checkResults() const {
    for (uint32_t i = 0; i < header.numOutputs; ++i) {
      ResultReach reach;
      std::string problem =
          isScalar(i) ? "" : checkResultView(views[i], outElt[i], reach);
      if (!problem.empty())
        return "kernel " + header.name + " returned a malformed result " +
               std::to_string(i) + ": " + problem;
    }
    return "";
  }

  /// Frees what the kernel allocated for its results: once each, never an
  /// input or a global.
  void release() {
    llvm::SmallPtrSet<void *, 8> freed;
    for (uint32_t i = 0; i < views.size(); ++i) {
      if (isScalar(i))
        continue;
      const DescriptorView &view = views[i];
      void *allocated = view.allocated();
      if (allocated && allocated != kGlobalMarker &&
          !inputData.count(allocated) && !keep.count(allocated) &&
          freed.insert(allocated).second)
        kernelFree(allocated); // libc's, or the kernel heap's
    }
  }
  /// Results handed over in place, freed later.
  llvm::SmallPtrSet<void *, 4> keep;

  void log(size_t replyBytes) {
    if (logLaunches)
      logEvent("launch " + std::to_string(header.numInputs) + " in, " +
               std::to_string(header.numOutputs) + " out, " +
               std::to_string(replyBytes) + " bytes back (" + header.name +
               ")");
  }
};

/// A reply that is the status word then `bytes`, for direct calls.
void replyDirectBuffer(StreamTransport &transport, uint64_t seq,
                       CWrapperFunctionBuffer reply) {
  WrapperFunctionBuffer owned(reply);
  iovec part{const_cast<char *>(owned.data()), owned.size()};
  llvm::consumeError(transport.replyDirect(seq, llvm::ArrayRef<iovec>(part)));
}

/// Kernel-heap blocks handed over in the last shared reply: the client has
/// copied them out once it sends the next call that allows sharing.
std::mutex deferredMutex;
std::vector<void *> deferredBlocks;
void deferRelease(void *block) {
  std::lock_guard<std::mutex> lock(deferredMutex);
  deferredBlocks.push_back(block);
}
void releaseDeferred() {
  std::vector<void *> blocks;
  {
    std::lock_guard<std::mutex> lock(deferredMutex);
    blocks.swap(deferredBlocks);
  }
  for (void *block : blocks)
    kernelFree(block);
}

/// A launch over a direct call: the reply is gathered from the kernel's
/// results where they lie (or copied once into this side's shared arena).
void serveDirectLaunch(StreamTransport &transport, uint64_t seq, uint32_t flags,
                       WrapperFunctionBuffer request) {
  // Kernels run on this (reader) thread: give it a signal stack once.
  static thread_local KernelThreadStack stack;
  const SharedArena &peer = transport.peerArena();
  Launch launch;
  std::string problem =
      launch.parse(request.data(), request.size(), peer.data(), peer.size());
  if (!problem.empty())
    return replyDirectBuffer(transport, seq, failWith(problem));
  launch.run();
  problem = launch.checkResults();
  if (!problem.empty())
    return replyDirectBuffer(transport, seq, failWith(problem));
  uint32_t nout = launch.header.numOutputs;
  // The metadata, with the data of each output after its own part.
  GatherMessage message;
  message.put64(kReplyOk);
  // Large results go through the kernel heap (shared memory the client
  // maps) when the client allows it: it holds its arena for this call and
  // has copied out the results of the last such call, which are freed now.
  bool share = transport.sharesMemory() && (flags & kDirectMayShareReply) &&
               kernelHeapBase();
  if (share) {
    releaseDeferred();
    if (llvm::Error err = transport.offerArena(kernelHeapFd(), kernelHeapSize())) {
      llvm::consumeError(std::move(err));
      share = false;
    }
  }
  size_t sharedBytes = 0;
  for (uint32_t i = 0; i < nout; ++i) {
    const DescriptorView &view = launch.views[i];
    uint32_t elt = launch.outElt[i];
    message.put32(launch.outRank[i]);
    message.put32(elt);
    if (launch.isScalar(i)) {
      // Its value, from the results struct (alive until the reply is sent).
      message.put64(elt);
      message.alignData();
      message.addData(static_cast<const char *>(view.base), elt);
      continue;
    }
    for (int64_t d = 0; d < view.rank; ++d)
      message.put64(static_cast<uint64_t>(view.size(d)));
    uint64_t bytes = static_cast<uint64_t>(view.numElements() * elt);
    const char *src = view.aligned() + view.offset() * elt;
    char *staging = nullptr;
    char *inHeap = nullptr;
    if (share && bytes >= kShareAbove) {
      if (view.isDense() && inKernelHeap(src) && inKernelHeap(view.allocated())) {
        // In place: the kernel's block lives until the next shared call.
        inHeap = const_cast<char *>(src);
        launch.keep.insert(view.allocated());
        deferRelease(view.allocated());
      } else if ((inHeap = static_cast<char *>(kernelHeapAllocate(bytes)))) {
        staging = inHeap;
        deferRelease(inHeap);
      }
    }
    if (inHeap) {
      message.put64(bytes | kSharedData);
      message.put64(static_cast<uint64_t>(inHeap - kernelHeapBase()));
      sharedBytes += bytes;
    } else {
      message.put64(bytes);
      message.alignData();
      if (bytes == 0)
        continue;
      if (!view.isDense())
        staging = message.stage(bytes);
      message.addData(staging ? staging : src, bytes);
    }
    if (staging && bytes)
      gatherDense(view, elt, src, staging);
  }
  auto parts = message.parts();
  llvm::consumeError(transport.replyDirect(seq, parts));
  launch.log(message.size() + sharedBytes);
  launch.release();
}
} // namespace

extern "C" CWrapperFunctionBuffer executorStudioLaunch(const char *data,
                                                       size_t size) {
  Launch launch;
  std::string problem = launch.parse(data, size, nullptr, 0);
  if (!problem.empty())
    return failWith(problem);
  launch.run();
  problem = launch.checkResults();
  if (!problem.empty())
    return failWith(problem);
  // Pack the results straight into the reply (sized first).
  auto fill = [&](Writer &w) {
    for (uint32_t i = 0; i < launch.header.numOutputs; ++i) {
      const DescriptorView &view = launch.views[i];
      w.put<uint32_t>(launch.outRank[i]);
      w.put<uint32_t>(launch.outElt[i]);
      if (launch.isScalar(i)) {
        w.put<uint64_t>(launch.outElt[i]);
        w.align(kDataAlignment);
        if (char *dst = w.reserve(launch.outElt[i]))
          std::memcpy(dst, view.base, launch.outElt[i]);
        continue;
      }
      for (int64_t d = 0; d < view.rank; ++d)
        w.put<int64_t>(view.size(d));
      w.putData(view, launch.outElt[i]);
    }
  };
  CWrapperFunctionBuffer reply = replyWith(fill);
  launch.release();
  launch.log(reply.Size);
  return reply;
}

namespace {
/// Kernels started by executorStudioLaunchAsync, by ticket.
struct AsyncLaunches {
  std::mutex mutex;
  uint64_t next = 1;
  std::map<uint64_t, std::thread> running;
};
AsyncLaunches &asyncLaunches() {
  static AsyncLaunches launches;
  return launches;
}
} // namespace

namespace {
/// Starts a launch_async kernel; it waits for `gate` (when valid) first,
/// so that its ticket can reach the client before a crash ends the session.
CWrapperFunctionBuffer launchAsyncAfter(const char *data, size_t size,
                                        std::shared_future<void> gate) {
  Reader r(data, size);
  LaunchHeader header;
  if (!readLaunchHeader(r, header))
    return failWith("malformed launch_async request");
  if (header.numInputs != 0 || header.numOutputs != 0)
    return failWith("launch_async runs () -> () entries only");
  auto entry = reinterpret_cast<void (*)(void *, void *)>(
      static_cast<uintptr_t>(header.pyface));
  AsyncLaunches &launches = asyncLaunches();
  std::lock_guard<std::mutex> lock(launches.mutex);
  uint64_t ticket = launches.next++;
  std::string name = header.name;
  launches.running.emplace(ticket, std::thread([entry, name, gate] {
                             if (gate.valid())
                               gate.wait();
                             KernelThreadStack stack;
                             RunningKernel running(name);
                             int64_t results = 0;
                             entry(&results, nullptr);
                           }));
  if (logLaunches)
    logEvent("launch_async started (ticket " + std::to_string(ticket) + ", " +
             name + ")");
  return replyWith([&](Writer &w) { w.put<uint64_t>(ticket); });
}
} // namespace

extern "C" CWrapperFunctionBuffer executorStudioLaunchAsync(const char *data,
                                                            size_t size) {
  return launchAsyncAfter(data, size, {});
}

extern "C" CWrapperFunctionBuffer executorStudioAwait(const char *data,
                                                      size_t size) {
  uint64_t ticket = 0;
  if (!readWord(data, size, ticket))
    return failWith("malformed await request");
  std::thread thread;
  {
    AsyncLaunches &launches = asyncLaunches();
    std::lock_guard<std::mutex> lock(launches.mutex);
    auto it = launches.running.find(ticket);
    if (it == launches.running.end())
      return failWith("await of unknown ticket " + std::to_string(ticket));
    thread = std::move(it->second);
    launches.running.erase(it);
  }
  thread.join();
  if (logLaunches)
    logEvent("launch_async finished (ticket " + std::to_string(ticket) + ")");
  return replyEmpty();
}

extern "C" CWrapperFunctionBuffer executorStudioNote(const char *data,
                                                     size_t size) {
  // A call's line is a per-launch line (--log=sessions leaves it out).
  std::string text(data, size);
  if (logLaunches || text.rfind("call ", 0) != 0)
    logEvent(text);
  return replyEmpty();
}

void serveDirectCall(StreamTransport &transport, uint64_t seq, uint64_t function,
                     uint32_t flags, WrapperFunctionBuffer request) {
  markSessionStarted(); // a call ends the handshake, direct or not
  CallInFlight serving; // until its reply is sent
  bool launch =
      function == reinterpret_cast<uintptr_t>(&executorStudioLaunch) ||
      function == reinterpret_cast<uintptr_t>(&executorStudioLaunchAsync);
  if (launch && sessionStopping())
    return replyDirectBuffer(transport, seq, failWith(kShuttingDownMessage));
  if (function == reinterpret_cast<uintptr_t>(&executorStudioLaunch))
    return serveDirectLaunch(transport, seq, flags, std::move(request));
  if (function == reinterpret_cast<uintptr_t>(&executorStudioLaunchAsync)) {
    // The ticket leaves before the kernel starts.
    std::promise<void> sent;
    CWrapperFunctionBuffer reply = launchAsyncAfter(
        request.data(), request.size(), sent.get_future().share());
    replyDirectBuffer(transport, seq, reply);
    sent.set_value();
    return;
  }
  // Any other wrapper function, called as ORC would.
  auto *fn = reinterpret_cast<CWrapperFunctionBuffer (*)(const char *, size_t)>(
      static_cast<uintptr_t>(function));
  replyDirectBuffer(transport, seq, fn(request.data(), request.size()));
}

std::unique_ptr<Service> makeLaunchService() {
  return std::make_unique<Service>(std::vector<Service::Symbol>{
      Service::wrapperSymbol(kLaunchWrapperName, &executorStudioLaunch),
      Service::wrapperSymbol(kNoteWrapperName, &executorStudioNote),
      Service::wrapperSymbol(kLaunchAsyncWrapperName,
                             &executorStudioLaunchAsync),
      Service::wrapperSymbol(kAwaitWrapperName, &executorStudioAwait),
      // Launches (and any wrapper call) may come as direct calls, served by
      // serveDirectCall.
      {kDirectCallsSymbol, llvm::orc::ExecutorAddr::fromPtr(&serveDirectCall)},
  });
}

} // namespace executor_studio::runtime
