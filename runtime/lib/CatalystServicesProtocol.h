//===- CatalystServicesProtocol.h - launches through alloc/invoke/free -*- C++ -*-===//
//
// A launch through Catalyst's services (catalyst_remote_alloc, _free,
// _invoke, _store_asset) and ORC's memory access: one block for every
// input's descriptor and data, the argument pointers and the result
// descriptors (alloc), written at once (write), the call (invoke), the
// result descriptors read back, then their data in one read; the block and
// the kernel's result buffers are freed without waiting. An ORC executor
// without services gets the same protocol with services the client links
// into it (OrcGenericProtocol.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_LIB_CATALYSTSERVICESPROTOCOL_H
#define EXECUTORRUNTIME_LIB_CATALYSTSERVICESPROTOCOL_H

#include "LaunchProtocol.h"

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>

namespace executor_studio::runtime {

class CatalystServicesProtocol : public LaunchProtocol {
public:
  /// The services at these addresses (`storeAsset` may be null: no asset
  /// storage).
  CatalystServicesProtocol(ExecutorClient::Impl &session,
                           llvm::orc::ExecutorAddr alloc,
                           llvm::orc::ExecutorAddr free,
                           llvm::orc::ExecutorAddr invoke,
                           llvm::orc::ExecutorAddr storeAsset);

  ExecutorKind kind() const override { return ExecutorKind::CatalystExecutor; }
  llvm::Error attach() override;
  llvm::Expected<std::vector<HostMemRef>>
  launch(const LaunchCall &call) override;
  llvm::Error launchDescriptors(const LaunchCall &call,
                                llvm::ArrayRef<DescriptorView> outputs) override;
  /// The invoke call, not waited for: the executor runs each wrapper call
  /// on a thread of its own; the ticket is the client's own.
  llvm::Expected<uint64_t> launchAsync(llvm::orc::ExecutorAddr entry,
                                       const std::string &kernel) override;
  llvm::Error await(uint64_t token) override;
  llvm::Error storeAsset(const std::string &name,
                         llvm::ArrayRef<char> bytes) override;

protected:
  /// For an executor whose services are found only at attach.
  explicit CatalystServicesProtocol(ExecutorClient::Impl &session)
      : LaunchProtocol(session) {}
  llvm::orc::ExecutorAddr remoteAlloc, remoteFree, remoteInvoke,
      remoteStoreAsset;

private:
  struct RemoteOutput {
    std::vector<int64_t> sizes;
    char *data = nullptr; // malloc'ed, the caller's
    uint64_t bytes = 0;
  };
  /// The launch itself; scalars go by pointer to their value, as the
  /// kernel's wrapper takes them, not as descriptors.
  llvm::Expected<std::vector<RemoteOutput>> launchRemote(const LaunchCall &call);
  /// Zeroed executor memory of `size` bytes.
  llvm::Expected<llvm::orc::ExecutorAddr> allocateRemote(uint64_t size,
                                                         const std::string &what);
  /// Frees `address` on the executor without waiting for the answer.
  void releaseRemote(llvm::orc::ExecutorAddr address);

  /// launch_async: the invoke call's reply, by the client's ticket.
  struct AsyncCall {
    std::mutex mutex;
    std::condition_variable ready;
    bool done = false;
    llvm::orc::shared::WrapperFunctionBuffer reply;
    std::string what;
  };
  std::mutex asyncMutex;
  std::map<uint64_t, std::shared_ptr<AsyncCall>> asyncCalls;
  uint64_t nextTicket = 1;
};

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_LIB_CATALYSTSERVICESPROTOCOL_H
