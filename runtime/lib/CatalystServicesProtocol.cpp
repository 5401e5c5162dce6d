//===- CatalystServicesProtocol.cpp - launches through Catalyst's services ===//
#include "CatalystServicesProtocol.h"
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/ExecutorProcessControl.h"
#include "llvm/ExecutionEngine/Orc/MemoryAccess.h"

#include <cstdlib>
#include <cstring>
#include <set>

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {

CatalystServicesProtocol::CatalystServicesProtocol(
    ExecutorClient::Impl &session, ExecutorAddr alloc, ExecutorAddr free,
    ExecutorAddr invoke, ExecutorAddr storeAsset)
    : LaunchProtocol(session), remoteAlloc(alloc), remoteFree(free),
      remoteInvoke(invoke), remoteStoreAsset(storeAsset) {}

Error CatalystServicesProtocol::attach() {
  // ORC's FD transport (catalyst-executor, llvm-jitlink-executor) sends a
  // message in two writes without TCP_NODELAY: acknowledge at once.
  if (session.transport)
    session.transport->setQuickAck(true);
  return Error::success();
}

void CatalystServicesProtocol::releaseRemote(ExecutorAddr address) {
  std::vector<char> request = encodeSPS<shared::SPSExecutorAddr>(address);
  session.callAndForget(remoteFree, request);
}

Expected<ExecutorAddr>
CatalystServicesProtocol::allocateRemote(uint64_t size, const std::string &what) {
  std::vector<char> request = encodeSPS<uint64_t>(size);
  auto reply = session.callRemote(remoteAlloc, request, what);
  if (!reply)
    return reply.takeError();
  ExecutorAddr address;
  shared::SPSInputBuffer in(reply->data(), reply->size());
  if (!shared::SPSArgList<shared::SPSExecutorAddr>::deserialize(in, address))
    return session.malformed(what, "the alloc service's reply of " +
                               Twine(reply->size()) +
                               " bytes is not an address");
  if (!address)
    return make_error<Refused>(session.address,
                               what + ": the executor could not allocate " +
                                   std::to_string(size) + " bytes",
                               "could not allocate " + std::to_string(size) +
                                   " bytes");
  return address;
}


Expected<std::vector<CatalystServicesProtocol::RemoteOutput>>
CatalystServicesProtocol::launchRemote(const LaunchCall &call) {
  std::string what = "launch of " + call.kernel;
  if (!session.open)
    return session.closed();
  ArrayRef<DescriptorView> inputs = call.inputs;
  ArrayRef<int64_t> inputElementSizes = call.inputElementSizes,
                    outputRanks = call.outputRanks,
                    outputElementSizes = call.outputElementSizes;
  auto scalarIn = [&](size_t i) { return call.scalarInput(i); };
  auto scalarOut = [&](size_t i) { return call.scalarOutput(i); };
  // The block: per input a descriptor and its data (dense, 16-aligned; a
  // scalar's data is its value), the argument array, then the results as
  // the wrapper writes them (a C struct of descriptors and scalars).
  size_t at = 0;
  std::vector<size_t> descAt(inputs.size()), dataAt(inputs.size()),
      dataBytes(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    descAt[i] = at;
    at = alignTo(at + DescriptorView::bytesFor(inputs[i].rank), kDataAlignment);
    dataAt[i] = at;
    dataBytes[i] = static_cast<size_t>(inputs[i].numElements() *
                                       inputElementSizes[i]);
    at = alignTo(at + dataBytes[i], kDataAlignment);
  }
  size_t argsAt = at;
  at += 8 * inputs.size();
  size_t resultsAt = at;
  std::vector<size_t> resultAt(outputRanks.size());
  size_t resultBytes = 0;
  for (size_t i = 0; i < outputRanks.size(); ++i) {
    size_t size = scalarOut(i) ? static_cast<size_t>(outputElementSizes[i])
                               : DescriptorView::bytesFor(outputRanks[i]);
    resultBytes = alignTo(resultBytes, scalarOut(i) ? size : 8);
    resultAt[i] = resultBytes;
    resultBytes += size;
  }
  at += alignTo(resultBytes, 8);
  size_t total = at;

  ExecutorAddr block;
  if (total > 0) {
    auto allocated = allocateRemote(total, what);
    if (!allocated)
      return allocated.takeError();
    block = *allocated;
    std::unique_ptr<char[]> staging(new char[total]());
    std::vector<int64_t> sizes;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const DescriptorView &in = inputs[i];
      gatherDense(in, inputElementSizes[i],
                  in.aligned() + in.offset() * inputElementSizes[i],
                  staging.get() + dataAt[i]);
      // A scalar's argument points at its value; a memref's at its
      // descriptor, which points at its data.
      uint64_t argument = (block + (scalarIn(i) ? dataAt[i] : descAt[i])).getValue();
      std::memcpy(staging.get() + argsAt + 8 * i, &argument, 8);
      if (scalarIn(i))
        continue;
      sizes.assign(static_cast<size_t>(in.rank), 0);
      for (int64_t d = 0; d < in.rank; ++d)
        sizes[d] = in.size(d);
      DescriptorView remote{staging.get() + descAt[i], in.rank};
      remote.setDense(nullptr, sizes.data());
      uint64_t data = (block + dataAt[i]).getValue();
      std::memcpy(staging.get() + descAt[i], &data, 8);
      std::memcpy(staging.get() + descAt[i] + 8, &data, 8);
    }
    if (Error err = session.es->getExecutorProcessControl().getMemoryAccess().writeBuffers(
            {tpctypes::BufferWrite{block, ArrayRef<char>(staging.get(), total)}}))
      return session.lost(what, toString(std::move(err)));
  }
  ExecutorAddr results = outputRanks.empty() ? ExecutorAddr() : block + resultsAt;
  ExecutorAddr arguments = inputs.empty() ? ExecutorAddr() : block + argsAt;
  std::vector<char> request =
      encodeSPS<shared::SPSExecutorAddr,
             shared::SPSSequence<shared::SPSExecutorAddr>>(
          call.entry, std::vector<ExecutorAddr>{results, arguments});
  auto invoked = session.callRemote(remoteInvoke, request, what);
  if (!invoked)
    return invoked.takeError();

  std::vector<RemoteOutput> outputs(outputRanks.size());
  // Frees what was malloc'ed for the outputs when they are not returned.
  auto dropOutputs = [&] {
    for (RemoteOutput &out : outputs)
      std::free(out.data);
  };
  if (!outputRanks.empty()) {
    MemoryAccess &memory = session.es->getExecutorProcessControl().getMemoryAccess();
    auto written =
        memory.readBuffers({ExecutorAddrRange(results, block + total)});
    if (!written)
      return session.lost(what, toString(written.takeError()));
    // Everything below is the executor's word: the descriptors its kernel
    // wrote and the bytes it sends for them are measured before use.
    uint64_t asked = total - resultsAt;
    if (written->size() != 1 || (*written)[0].size() != asked)
      return session.malformed(what, "the result descriptors came back as " +
                                 Twine(written->empty() ? 0 : (*written)[0].size()) +
                                 " bytes in " + Twine(written->size()) +
                                 " buffers, not the " + Twine(asked) +
                                 " bytes asked for");
    std::vector<uint8_t> &words = (*written)[0];
    std::vector<ExecutorAddrRange> ranges;
    std::vector<size_t> rangeOf(outputRanks.size(), ~size_t(0));
    std::vector<ResultReach> reach(outputRanks.size());
    std::set<uint64_t> kernelBuffers;
    for (size_t i = 0; i < outputRanks.size(); ++i) {
      int64_t elementSize = outputElementSizes[i];
      if (scalarOut(i))
        continue;
      DescriptorView view{words.data() + resultAt[i], outputRanks[i]};
      std::string problem = checkResultView(view, elementSize, reach[i]);
      if (!problem.empty())
        return session.malformed(what, "result " + Twine(i) + " (rank " +
                                   Twine(outputRanks[i]) + ", " +
                                   Twine(elementSize) +
                                   "-byte elements): " + problem);
      if (reach[i].readBytes) {
        rangeOf[i] = ranges.size();
        ranges.push_back(ExecutorAddrRange(
            ExecutorAddr(reach[i].start),
            ExecutorAddr(reach[i].start + reach[i].readBytes)));
      }
      // What the kernel allocated for its results: freed below (never a
      // global, marked 0xdeadbeef by MLIR, nor an input, which is in the
      // block).
      uint64_t allocated = reinterpret_cast<uint64_t>(view.allocated());
      if (allocated && allocated != 0xdeadbeef &&
          (allocated < block.getValue() ||
           allocated >= block.getValue() + total))
        kernelBuffers.insert(allocated);
    }
    std::vector<std::vector<uint8_t>> data;
    if (!ranges.empty()) {
      auto read = memory.readBuffers(ranges);
      if (!read)
        return session.lost(what, toString(read.takeError()));
      data = std::move(*read);
    }
    if (data.size() != ranges.size())
      return session.malformed(what, Twine(data.size()) + " buffers came back for " +
                                 Twine(ranges.size()) + " results");
    for (size_t i = 0; i < outputRanks.size(); ++i) {
      int64_t elementSize = outputElementSizes[i];
      RemoteOutput &out = outputs[i];
      if (scalarOut(i)) {
        out.bytes = static_cast<uint64_t>(elementSize);
        out.data = static_cast<char *>(std::malloc(out.bytes));
        std::memcpy(out.data, words.data() + resultAt[i], out.bytes);
        continue;
      }
      DescriptorView view{words.data() + resultAt[i], outputRanks[i]};
      const uint8_t *from = nullptr;
      if (rangeOf[i] != ~size_t(0)) {
        const std::vector<uint8_t> &bytes = data[rangeOf[i]];
        if (bytes.size() != reach[i].readBytes) {
          dropOutputs();
          return session.malformed(what, "result " + Twine(i) + "'s data came back as " +
                                     Twine(bytes.size()) + " bytes, not the " +
                                     Twine(reach[i].readBytes) +
                                     " its descriptor reaches");
        }
        from = bytes.data();
      }
      for (int64_t d = 0; d < view.rank; ++d)
        out.sizes.push_back(view.size(d));
      out.bytes = reach[i].denseBytes;
      out.data = static_cast<char *>(std::malloc(out.bytes ? out.bytes : 1));
      if (!out.data) {
        dropOutputs();
        return session.error(what + " failed: cannot allocate " +
                     std::to_string(out.bytes) + " bytes for result " +
                     std::to_string(i));
      }
      // The read bytes start at the first element the view reaches.
      if (from)
        gatherDense(view, elementSize, reinterpret_cast<const char *>(from),
                    out.data);
    }
    for (uint64_t buffer : kernelBuffers)
      releaseRemote(ExecutorAddr(buffer));
  }
  if (block)
    releaseRemote(block);
  return outputs;
}

Expected<std::vector<HostMemRef>>
CatalystServicesProtocol::launch(const LaunchCall &call) {
  auto remote = launchRemote(call);
  if (!remote)
    return remote.takeError();
  std::vector<HostMemRef> outputs;
  for (size_t i = 0; i < remote->size(); ++i) {
    RemoteOutput &out = (*remote)[i];
    HostMemRef m;
    m.sizes = out.sizes;
    m.elementSize = call.outputElementSizes[i];
    m.bytes.assign(out.data, out.data + out.bytes);
    m.scalar = call.scalarOutput(i);
    std::free(out.data);
    outputs.push_back(std::move(m));
  }
  return outputs;
}

Error CatalystServicesProtocol::launchDescriptors(
    const LaunchCall &call, ArrayRef<DescriptorView> outputs) {
  auto remote = launchRemote(call);
  if (!remote)
    return remote.takeError();
  for (size_t i = 0; i < outputs.size(); ++i) {
    DescriptorView out = outputs[i];
    if (call.scalarOutput(i)) {
      // The value goes where the output points.
      std::memcpy(out.base, (*remote)[i].data, (*remote)[i].bytes);
      std::free((*remote)[i].data);
      continue;
    }
    out.setDense((*remote)[i].data, (*remote)[i].sizes.data());
  }
  return Error::success();
}

Expected<uint64_t>
CatalystServicesProtocol::launchAsync(ExecutorAddr entry,
                                      const std::string &kernel) {
  auto call = std::make_shared<AsyncCall>();
  call->what = "launch_async of " + kernel;
  std::vector<char> request =
      encodeSPS<shared::SPSExecutorAddr,
                shared::SPSSequence<shared::SPSExecutorAddr>>(
          entry, std::vector<ExecutorAddr>{ExecutorAddr(), ExecutorAddr()});
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(asyncMutex);
    ticket = nextTicket++;
    asyncCalls[ticket] = call;
  }
  session.es->getExecutorProcessControl().callWrapperAsync(
      ExecutorProcessControl::RunInPlace(), remoteInvoke,
      [call](shared::WrapperFunctionBuffer reply) {
        std::lock_guard<std::mutex> lock(call->mutex);
        call->reply = std::move(reply);
        call->done = true;
        call->ready.notify_all();
      },
      request);
  return ticket;
}

Error CatalystServicesProtocol::await(uint64_t token) {
  std::shared_ptr<AsyncCall> call;
  {
    std::lock_guard<std::mutex> lock(asyncMutex);
    auto it = asyncCalls.find(token);
    if (it == asyncCalls.end())
      return session.error("await of unknown ticket " + std::to_string(token));
    call = it->second;
    asyncCalls.erase(it);
  }
  std::unique_lock<std::mutex> lock(call->mutex);
  call->ready.wait(lock, [&] { return call->done; });
  if (const char *message = call->reply.getOutOfBandError())
    return session.lost(call->what, message);
  return Error::success();
}

Error CatalystServicesProtocol::storeAsset(const std::string &name,
                                           ArrayRef<char> bytes) {
  std::string what = "storing asset '" + name + "'";
  std::string problem = assetNameProblem(name);
  if (!problem.empty())
    return session.error("refused asset name '" + name + "': " + problem);
  std::vector<char> request =
      encodeSPS<shared::SPSSequence<char>, shared::SPSString>(bytes, name);
  auto reply = session.callRemote(remoteStoreAsset, request, what);
  if (!reply)
    return reply.takeError();
  int32_t status = -1;
  shared::SPSInputBuffer in(reply->data(), reply->size());
  if (!shared::SPSArgList<int32_t>::deserialize(in, status))
    return session.malformed(what, "catalyst_remote_store_asset's reply of " +
                                       Twine(reply->size()) +
                                       " bytes is not an int32 status");
  if (status != 0)
    return session.refused(what, "catalyst_remote_store_asset answered " +
                                     std::to_string(status) +
                                     " (the executor's log says why)");
  return Error::success();
}

std::unique_ptr<LaunchProtocol>
makeCatalystServicesProtocol(ExecutorClient::Impl &session,
                             const StringMap<ExecutorAddr> &published) {
  const char *names[] = {"catalyst_remote_alloc", "catalyst_remote_free",
                         "catalyst_remote_invoke",
                         "catalyst_remote_store_asset"};
  for (const char *name : names)
    if (!published.count(name))
      return nullptr;
  return std::make_unique<CatalystServicesProtocol>(
      session, published.lookup(names[0]), published.lookup(names[1]),
      published.lookup(names[2]), published.lookup(names[3]));
}

} // namespace executor_studio::runtime
