//===- CatalystServices.cpp - Catalyst's executor services ----------------===//
//
// Written from the encodings alone (CatalystServices.h). The protections of
// this server hold for them as for its own services: the session is its own
// process (a kernel that crashes ends only it, and says so), tokens are
// checked before any ORC message, the listener stays on loopback unless
// told otherwise, and an asset never lands outside the session's
// directory. Catalyst's client sends an asset's host path as its name; the
// file name of that path is what is stored (as catalyst-executor does), and
// it must be a plain file name (`..`, `.` and empty names are refused).
//
//===----------------------------------------------------------------------===//
#include "CatalystServices.h"
#include "AssetService.h"
#include "CrashReport.h"
#include "KernelHeap.h"
#include "LaunchService.h"

#include "llvm/ExecutionEngine/Orc/Shared/SimplePackedSerialization.h"

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <set>
#include <sys/mman.h>
#include <unistd.h>
#include <dlfcn.h>
#include <string>
#include <vector>

using namespace llvm;
using namespace llvm::orc;
using namespace llvm::orc::shared;

namespace executor_studio::runtime {

namespace {
/// The blocks catalyst_remote_alloc handed out and that are not freed yet
/// (the server's one alloc/free pair): a wild or repeated free from a
/// client is refused with an error instead of corrupting (or aborting in)
/// libc's heap.
struct ServiceBlocks {
  std::mutex mutex;
  std::set<uint64_t> live;
  /// Blocks freed through a free service and not handed out again: a
  /// second free of one is refused (bounded: the oldest are forgotten).
  std::set<uint64_t> freed;
  std::vector<uint64_t> freedOrder;
};
ServiceBlocks &serviceBlocks() {
  static ServiceBlocks *blocks = new ServiceBlocks; // kernels may run at exit
  return *blocks;
}

/// A zeroed block of `bytes` (0 when there is no memory), remembered until
/// serviceFree.
uint64_t serviceAllocate(uint64_t bytes) {
  void *p = std::calloc(1, bytes ? bytes : 1);
  if (!p)
    return 0;
  uint64_t address = reinterpret_cast<uintptr_t>(p);
  ServiceBlocks &blocks = serviceBlocks();
  std::lock_guard<std::mutex> lock(blocks.mutex);
  blocks.live.insert(address);
  blocks.freed.erase(address);
  return address;
}

/// Frees a block serviceAllocate returned, or a block a kernel allocated
/// (when it can be one); "" or why `address` is refused, `service` naming
/// the request in the message.
std::string serviceFree(uint64_t address, const char *service) {
  if (!address)
    return ""; // as free(NULL)
  void *block = reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  auto refused = [&](const char *why) {
    char text[200];
    std::snprintf(text, sizeof(text), "%s of 0x%llx refused: %s", service,
                  static_cast<unsigned long long>(address), why);
    return std::string(text);
  };
  {
    ServiceBlocks &blocks = serviceBlocks();
    std::lock_guard<std::mutex> lock(blocks.mutex);
    if (blocks.live.erase(address)) {
      std::free(block);
      blocks.freed.insert(address);
      blocks.freedOrder.push_back(address);
      if (blocks.freedOrder.size() > 4096) {
        blocks.freed.erase(blocks.freedOrder.front());
        blocks.freedOrder.erase(blocks.freedOrder.begin());
      }
      return "";
    }
    if (blocks.freed.count(address))
      return refused("it was freed already");
  }
  // A block a kernel allocated (a launch's result, which the client frees
  // once it has read it): what the heap hands out is 16-byte aligned and
  // mapped; anything else is refused before libc sees it.
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t start = static_cast<uintptr_t>(address) & ~uintptr_t(page - 1);
  if (address % 16 != 0 ||
      msync(reinterpret_cast<void *>(start), 1, MS_ASYNC) != 0)
    return refused("not a block the session allocated");
  kernelFree(block);
  return "";
}

ExecutorAddr alloc(uint64_t size) { return ExecutorAddr(serviceAllocate(size)); }

void invoke(ExecutorAddr entry, std::vector<ExecutorAddr> arguments) {
  if (!entry)
    return; // as catalyst-executor: nothing to run
  if (arguments.size() != 2)
    endSessionWithError("catalyst_remote_invoke of " + entryAt(entry.getValue()) +
                        " got " + std::to_string(arguments.size()) +
                        " arguments; it takes 2 (the results and the "
                        "arguments of the entry)");
  if (logLaunches)
    logEvent("catalyst_remote_invoke of " + entryAt(entry.getValue()));
  RunningKernel running(entryAt(entry.getValue()));
  entry.toPtr<void (*)(void *, void *)>()(arguments[0].toPtr<void *>(),
                                          arguments[1].toPtr<void *>());
}

/// Whether the SPS sequence at `at` (a u64 count, then that many elements of
/// `elementSize` bytes) lies before `end`; moves `at` past it. LLVM's SPS
/// deserializer reserves a sequence's count before it reads the elements, so
/// a count the message does not hold must be refused first: it ended the
/// session (std::length_error, or an allocation of that size).
bool sequenceFits(const char *&at, const char *end, uint64_t elementSize) {
  uint64_t count = 0;
  if (static_cast<size_t>(end - at) < sizeof(count))
    return false;
  std::memcpy(&count, at, sizeof(count));
  at += sizeof(count);
  if (count > static_cast<size_t>(end - at) / elementSize)
    return false;
  at += count * elementSize;
  return true;
}

/// An SPS argument buffer of `prefix` bytes, then sequences of the given
/// element sizes, that holds what its counts say.
bool sequencesFit(const char *data, size_t size, size_t prefix,
                  std::initializer_list<uint64_t> elementSizes) {
  if (size < prefix)
    return false;
  const char *at = data + prefix, *end = data + size;
  for (uint64_t elementSize : elementSizes)
    if (!sequenceFits(at, end, elementSize))
      return false;
  return true;
}


int32_t storeAssetAt(std::vector<char> bytes, std::string name) {
  // The last component of the path, as catalyst-executor keeps it.
  std::string file = name;
  size_t slash = file.find_last_of('/');
  if (slash != std::string::npos)
    file = file.substr(slash + 1);
  std::string problem = storeAsset(file, bytes.data(), bytes.size());
  if (problem.empty())
    return 0;
  logEvent("error: catalyst_remote_store_asset of '" + name + "': " + problem);
  return -1;
}
} // namespace

extern "C" CWrapperFunctionBuffer catalystRemoteAlloc(const char *data,
                                                      size_t size) {
  return WrapperFunction<SPSExecutorAddr(uint64_t)>::handle(data, size, alloc)
      .release();
}

extern "C" CWrapperFunctionBuffer catalystRemoteFree(const char *data,
                                                     size_t size) {
  // What catalyst_remote_alloc returned, once (Catalyst's contract), or a
  // kernel's result block (executor-studio's client frees those): a wild or
  // repeated free is an error reply, not libc's abort.
  ExecutorAddr address;
  SPSInputBuffer in(data, size);
  if (!SPSArgList<SPSExecutorAddr>::deserialize(in, address)) {
    logEvent("error: malformed catalyst_remote_free request");
    return WrapperFunctionBuffer::createOutOfBandError(
               "malformed catalyst_remote_free request")
        .release();
  }
  std::string problem =
      serviceFree(address.getValue(), "catalyst_remote_free");
  if (!problem.empty()) {
    logEvent("error: " + problem);
    return WrapperFunctionBuffer::createOutOfBandError(problem).release();
  }
  return WrapperFunctionBuffer().release();
}

extern "C" CWrapperFunctionBuffer catalystRemoteInvoke(const char *data,
                                                       size_t size) {
  if (!sequencesFit(data, size, sizeof(uint64_t), {sizeof(uint64_t)}))
    endSessionWithError("malformed catalyst_remote_invoke request: its "
                        "arguments are fewer than it says");
  return WrapperFunction<void(SPSExecutorAddr,
                              SPSSequence<SPSExecutorAddr>)>::handle(data, size,
                                                                     invoke)
      .release();
}

extern "C" CWrapperFunctionBuffer catalystRemoteStoreAsset(const char *data,
                                                           size_t size) {
  if (!sequencesFit(data, size, 0, {1, 1})) {
    // Refused (-1), as Catalyst's client expects of a refusal.
    logEvent("error: malformed catalyst_remote_store_asset request: its "
             "bytes or name are shorter than it says");
    int32_t refused = -1; // SPS: little-endian, as the executor's order
    return WrapperFunctionBuffer::copyFrom(
               reinterpret_cast<const char *>(&refused), sizeof(refused))
        .release();
  }
  return WrapperFunction<int32_t(SPSSequence<char>, SPSString)>::handle(
             data, size, storeAssetAt)
      .release();
}

std::unique_ptr<Service> makeCatalystServices() {
  return std::make_unique<Service>(std::vector<Service::Symbol>{
      Service::wrapperSymbol("catalyst_remote_alloc", &catalystRemoteAlloc),
      Service::wrapperSymbol("catalyst_remote_free", &catalystRemoteFree),
      Service::wrapperSymbol("catalyst_remote_invoke", &catalystRemoteInvoke),
      Service::wrapperSymbol("catalyst_remote_store_asset",
                             &catalystRemoteStoreAsset),
  });
}

void startCatalystRuntime() {
  if (auto *initialize = reinterpret_cast<void (*)(uint32_t *)>(
          dlsym(RTLD_DEFAULT, "__catalyst__rt__initialize"))) {
    initialize(nullptr);
    logEvent("Catalyst's runtime initialised (__catalyst__rt__initialize)");
  }
}

void stopCatalystRuntime() {
  if (auto *finalize = reinterpret_cast<void (*)()>(
          dlsym(RTLD_DEFAULT, "__catalyst__rt__finalize")))
    finalize();
}

} // namespace executor_studio::runtime
