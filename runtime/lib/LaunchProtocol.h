//===- LaunchProtocol.h - how a session launches kernels --------*- C++ -*-===//
//
// How a session launches depends on the services the executor published as
// ORC bootstrap symbols, as ORC's EPCGenericMemoryAccess is a class keyed
// by the addresses it found. A session chooses its protocol once, in
// ExecutorClient::open (chooseLaunchProtocol), and never asks which it has:
//
//   OneTripProtocol.cpp          executor-server (__executor_studio_launch
//                                and friends): a launch is one round trip,
//                                a direct call of the transport when the
//                                server publishes kDirectCallsSymbol;
//   CatalystServicesProtocol.cpp Catalyst's catalyst_remote_* services and
//                                ORC's memory access: alloc, write, invoke,
//                                read back, free;
//   OrcGenericProtocol.cpp       any other ORC executor
//                                (llvm-jitlink-executor): the same, with
//                                alloc/free/invoke in a small object the
//                                client compiles for the executor and links
//                                into it; no asset storage.
//
// Every reply a protocol reads is the executor's word: measured before use
// (checkResultView, readLaunchReply, Wire.h), a lie ends the session
// (Impl::malformed).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_LIB_LAUNCHPROTOCOL_H
#define EXECUTORRUNTIME_LIB_LAUNCHPROTOCOL_H

#include "ClientSession.h"

#include "llvm/ADT/StringMap.h"

namespace executor_studio::runtime {

/// One launch, as every protocol takes it: the kernel at `entry` (`kernel`
/// names it in errors) on `inputs` (a scalar's by pointer to its value,
/// where `scalarInputs` says so), for results of `outputRanks` and
/// `outputElementSizes` (a scalar's, of rank 0, where `scalarOutputs` says
/// so). Empty scalar lists: no scalars.
struct LaunchCall {
  llvm::orc::ExecutorAddr entry;
  const std::string &kernel;
  llvm::ArrayRef<DescriptorView> inputs;
  llvm::ArrayRef<int64_t> inputElementSizes;
  llvm::ArrayRef<int64_t> outputRanks;
  llvm::ArrayRef<int64_t> outputElementSizes;
  llvm::ArrayRef<bool> scalarInputs = {};
  llvm::ArrayRef<bool> scalarOutputs = {};

  bool scalarInput(size_t i) const {
    return i < scalarInputs.size() && scalarInputs[i];
  }
  bool scalarOutput(size_t i) const {
    return i < scalarOutputs.size() && scalarOutputs[i];
  }
};

class LaunchProtocol {
public:
  explicit LaunchProtocol(ExecutorClient::Impl &session) : session(session) {}
  virtual ~LaunchProtocol();

  virtual ExecutorKind kind() const = 0;
  /// Once the session's process JITDylib exists: what the protocol adds to
  /// the session (executor-server's kernel heap, the ORC executor's linked
  /// services). An error ends the open.
  virtual llvm::Error attach() { return llvm::Error::success(); }

  /// Runs `call` and returns its results.
  virtual llvm::Expected<std::vector<HostMemRef>>
  launch(const LaunchCall &call) = 0;
  /// The same on MLIR memref descriptors (the call's output ranks are
  /// theirs): each of `outputs` is filled with fresh malloc'ed memory the
  /// caller owns; a scalar output's `base` points at where its value is
  /// stored instead (a scalar input's view, of rank 0, at its value).
  virtual llvm::Error launchDescriptors(const LaunchCall &call,
                                        llvm::ArrayRef<DescriptorView> outputs) = 0;
  /// Starts a `() -> ()` entry; await waits for the ticket it returns.
  virtual llvm::Expected<uint64_t> launchAsync(llvm::orc::ExecutorAddr entry,
                                               const std::string &kernel) = 0;
  virtual llvm::Error await(uint64_t token) = 0;
  virtual llvm::Error storeAsset(const std::string &name,
                                 llvm::ArrayRef<char> bytes) = 0;
  /// A line for the executor's log, waited for or not (only executor-server
  /// keeps one).
  virtual void note(const std::string &message, bool wait) {}

protected:
  ExecutorClient::Impl &session;
};

/// Each protocol, when `published` holds the symbols it needs (nullptr
/// otherwise).
std::unique_ptr<LaunchProtocol>
makeOneTripProtocol(ExecutorClient::Impl &session,
                    const llvm::StringMap<llvm::orc::ExecutorAddr> &published);
std::unique_ptr<LaunchProtocol> makeCatalystServicesProtocol(
    ExecutorClient::Impl &session,
    const llvm::StringMap<llvm::orc::ExecutorAddr> &published);
/// Needs nothing but ORC's own bootstrap symbols.
std::unique_ptr<LaunchProtocol>
makeOrcGenericProtocol(ExecutorClient::Impl &session);

/// The first of the above that fits the executor's bootstrap symbols.
std::unique_ptr<LaunchProtocol>
chooseLaunchProtocol(ExecutorClient::Impl &session,
                     const llvm::StringMap<llvm::orc::ExecutorAddr> &published);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_LIB_LAUNCHPROTOCOL_H
