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
#include "LogText.h"
#include "ExecutorRuntime/Plugin.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/Shared/WrapperFunctionUtils.h"

#include <atomic>
#include <cstdio>
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

namespace executor_runtime {

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

CWrapperFunctionBuffer replyEmpty() {
  return replyWith([](Writer &) {});
}

/// Requests that are one u64.
bool readWord(const char *data, size_t size, uint64_t &word) {
  Reader r(data, size);
  return r.get(word) && r.done();
}

/// An error reply (ORC's out-of-band errors do not cross the wire).
CWrapperFunctionBuffer failWith(const std::string &message) {
  logEvent("error: " + message);
  std::vector<char> bytes(sizeof(uint64_t) + message.size());
  uint64_t status = kReplyError;
  std::memcpy(bytes.data(), &status, sizeof(status));
  std::memcpy(bytes.data() + sizeof(status), message.data(), message.size());
  return WrapperFunctionBuffer::copyFrom(bytes.data(), bytes.size()).release();
}
} // namespace

std::string entryAt(uint64_t address) {
  char text[48];
  std::snprintf(text, sizeof(text), "the entry at 0x%llx",
                static_cast<unsigned long long>(address));
  return text;
}

void logEvent(const std::string &message) {
  // Messages carry client text (object and kernel names, notes): escaped.
  std::fprintf(stderr, "executor-server: %s: %s\n", sessionLabel.c_str(),
               escapeLogText(message).c_str());
  std::fflush(stderr);
}

extern "C" CWrapperFunctionBuffer executorStudioLaunch(const char *data,
                                                       size_t size) {
  Reader r(data, size);
  LaunchHeader header;
  if (!readLaunchHeader(r, header))
    return failWith("malformed launch request");
  uint64_t pyface = header.pyface;
  uint32_t nin = header.numInputs, nout = header.numOutputs;

  // Inputs: descriptors over the request's own (16-byte aligned) bytes, so
  // large memrefs are not copied again. The request buffer is this call's.
  std::vector<std::vector<int64_t>> inWords(nin);
  std::vector<void *> args(nin, nullptr);
  std::set<const void *> inputData;
  for (uint32_t i = 0; i < nin; ++i) {
    uint32_t rank = 0, eltSize = 0;
    if (!r.get(rank) || !r.get(eltSize) || rank > 64)
      return failWith("malformed launch request (input " + std::to_string(i) + ")");
    std::vector<int64_t> sizes(rank);
    for (auto &s : sizes)
      if (!r.get(s))
        return failWith("malformed launch request (input shape)");
    uint64_t bytes = 0;
    const char *payload = nullptr;
    if (!r.get(bytes) || !r.align(kDataAlignment) ||
        !(payload = r.take(bytes)))
      return failWith("malformed launch request (input data)");
    inWords[i].assign(3 + 2 * rank, 0);
    DescriptorView view{inWords[i].data(), rank};
    view.setDense(const_cast<char *>(payload), sizes.data());
    args[i] = inWords[i].data();
    inputData.insert(payload);
  }
  std::vector<uint32_t> outRank(nout), outElt(nout);
  size_t resultBytes = 0;
  for (uint32_t i = 0; i < nout; ++i) {
    if (!r.get(outRank[i]) || !r.get(outElt[i]) || outRank[i] > 64)
      return failWith("malformed launch request (result " + std::to_string(i) + ")");
    resultBytes += DescriptorView::bytesFor(outRank[i]);
  }
  std::vector<int64_t> results(resultBytes / 8 + 1, 0);

  auto entry = reinterpret_cast<void (*)(void *, void *)>(
      static_cast<uintptr_t>(pyface));
  {
    RunningKernel running(header.name);
    entry(results.data(), args.data());
  }

  // Pack the results straight into the reply (sized first), then free what
  // the kernel allocated for them: once each, never an input or a global.
  std::vector<DescriptorView> views;
  size_t offset = 0;
  for (uint32_t i = 0; i < nout; ++i) {
    views.push_back({reinterpret_cast<char *>(results.data()) + offset,
                     outRank[i]});
    offset += DescriptorView::bytesFor(outRank[i]);
  }
  auto fill = [&](Writer &w) {
    for (uint32_t i = 0; i < nout; ++i) {
      w.put<uint32_t>(outRank[i]);
      w.put<uint32_t>(outElt[i]);
      for (int64_t d = 0; d < views[i].rank; ++d)
        w.put<int64_t>(views[i].size(d));
      w.putData(views[i], outElt[i]);
    }
  };
  CWrapperFunctionBuffer reply = replyWith(fill);
  std::set<void *> freed;
  for (const DescriptorView &view : views) {
    void *allocated = view.allocated();
    if (allocated && allocated != kGlobalMarker && !inputData.count(allocated) &&
        freed.insert(allocated).second)
      std::free(allocated);
  }
  if (logLaunches)
    logEvent("launch " + std::to_string(nin) + " in, " + std::to_string(nout) +
             " out, " + std::to_string(reply.Size) + " bytes back (" +
             header.name + ")");
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

extern "C" CWrapperFunctionBuffer executorStudioLaunchAsync(const char *data,
                                                            size_t size) {
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
  launches.running.emplace(ticket, std::thread([entry, name] {
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
  logEvent(std::string(data, size));
  return replyEmpty();
}

extern "C" CWrapperFunctionBuffer executorStudioAlloc(const char *data,
                                                      size_t size) {
  uint64_t bytes = 0;
  if (!readWord(data, size, bytes))
    return failWith("malformed alloc request");
  uint64_t address = reinterpret_cast<uintptr_t>(std::malloc(bytes ? bytes : 1));
  return replyWith([&](Writer &w) { w.put<uint64_t>(address); });
}

extern "C" CWrapperFunctionBuffer executorStudioFree(const char *data,
                                                     size_t size) {
  uint64_t address = 0;
  if (!readWord(data, size, address))
    return failWith("malformed free request");
  std::free(reinterpret_cast<void *>(static_cast<uintptr_t>(address)));
  return replyEmpty();
}

extern "C" CWrapperFunctionBuffer executorStudioInvoke(const char *data,
                                                       size_t size) {
  Reader r(data, size);
  uint64_t pyface = 0, results = 0, args = 0;
  if (!r.get(pyface) || !r.get(results) || !r.get(args) || !pyface)
    return failWith("malformed invoke request");
  RunningKernel running(entryAt(pyface));
  reinterpret_cast<void (*)(void *, void *)>(static_cast<uintptr_t>(pyface))(
      reinterpret_cast<void *>(static_cast<uintptr_t>(results)),
      reinterpret_cast<void *>(static_cast<uintptr_t>(args)));
  return replyEmpty();
}

} // namespace executor_runtime
