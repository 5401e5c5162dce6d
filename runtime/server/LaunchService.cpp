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
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/Shared/WrapperFunctionUtils.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

using namespace llvm::orc::shared;

namespace executor_runtime {

std::atomic<bool> logLaunches{true};
std::string sessionLabel = "session";

namespace {
/// MLIR marks memref.get_global results with this "allocated" pointer.
void *const kGlobalMarker = reinterpret_cast<void *>(0xdeadbeef);

CWrapperFunctionBuffer failWith(const std::string &message) {
  logEvent("error: " + message);
  return WrapperFunctionBuffer::createOutOfBandError(message).release();
}
} // namespace

void logEvent(const std::string &message) {
  std::fprintf(stderr, "executor-server: %s: %s\n", sessionLabel.c_str(),
               message.c_str());
  std::fflush(stderr);
}

extern "C" CWrapperFunctionBuffer executorStudioLaunch(const char *data,
                                                       size_t size) {
  Reader r(data, size);
  uint64_t magic = 0, pyface = 0;
  uint32_t nin = 0, nout = 0;
  if (!r.get(magic) || magic != kLaunchMagic || !r.get(pyface) ||
      !r.get(nin) || !r.get(nout) || pyface == 0)
    return failWith("malformed launch request");

  // Inputs: one malloc'ed dense buffer and one descriptor each.
  std::vector<std::vector<int64_t>> inWords(nin);
  std::vector<void *> inData(nin, nullptr), args(nin, nullptr);
  auto releaseInputs = [&] {
    for (void *p : inData)
      std::free(p);
  };
  for (uint32_t i = 0; i < nin; ++i) {
    uint32_t rank = 0, eltSize = 0;
    if (!r.get(rank) || !r.get(eltSize) || rank > 64) {
      releaseInputs();
      return failWith("malformed launch request (input " + std::to_string(i) + ")");
    }
    std::vector<int64_t> sizes(rank);
    for (auto &s : sizes)
      if (!r.get(s)) {
        releaseInputs();
        return failWith("malformed launch request (input shape)");
      }
    uint64_t bytes = 0;
    const char *payload = nullptr;
    if (!r.get(bytes) || !(payload = r.take(bytes))) {
      releaseInputs();
      return failWith("malformed launch request (input data)");
    }
    inData[i] = std::malloc(bytes ? bytes : 1);
    std::memcpy(inData[i], payload, bytes);
    inWords[i].assign(3 + 2 * rank, 0);
    DescriptorView view{inWords[i].data(), rank};
    view.setDense(inData[i], sizes.data());
    args[i] = inWords[i].data();
  }
  std::vector<uint32_t> outRank(nout), outElt(nout);
  size_t resultBytes = 0;
  for (uint32_t i = 0; i < nout; ++i) {
    if (!r.get(outRank[i]) || !r.get(outElt[i]) || outRank[i] > 64) {
      releaseInputs();
      return failWith("malformed launch request (result " + std::to_string(i) + ")");
    }
    resultBytes += DescriptorView::bytesFor(outRank[i]);
  }
  std::vector<int64_t> results(resultBytes / 8 + 1, 0);

  auto entry = reinterpret_cast<void (*)(void *, void *)>(
      static_cast<uintptr_t>(pyface));
  entry(results.data(), args.data());

  // Pack the results, then free what the kernel allocated for them (once
  // each; never an input buffer or a global).
  std::vector<char> reply;
  Writer w(reply);
  std::set<void *> freed(inData.begin(), inData.end());
  size_t offset = 0;
  std::vector<void *> toFree;
  for (uint32_t i = 0; i < nout; ++i) {
    DescriptorView view{reinterpret_cast<char *>(results.data()) + offset,
                        outRank[i]};
    offset += DescriptorView::bytesFor(outRank[i]);
    w.put<uint32_t>(outRank[i]);
    w.put<uint32_t>(outElt[i]);
    for (int64_t d = 0; d < view.rank; ++d)
      w.put<int64_t>(view.size(d));
    w.putData(view, outElt[i]);
    void *allocated = view.allocated();
    if (allocated && allocated != kGlobalMarker && freed.insert(allocated).second)
      toFree.push_back(allocated);
  }
  for (void *p : toFree)
    std::free(p);
  releaseInputs();
  if (logLaunches)
    logEvent("launch " + std::to_string(nin) + " in, " + std::to_string(nout) +
             " out, " + std::to_string(reply.size()) + " bytes back");
  return WrapperFunctionBuffer::copyFrom(reply.data(), reply.size()).release();
}

extern "C" CWrapperFunctionBuffer executorStudioNote(const char *data,
                                                     size_t size) {
  logEvent(std::string(data, size));
  return WrapperFunctionBuffer().release();
}

} // namespace executor_runtime
