//===- ClientSession.h - what a launch protocol shares with its session -*- C++ -*-===//
//
// ExecutorClient::Impl: one session's ORC state (the ExecutionSession, the
// linker, the loaded objects and their entries), its transport, and the
// errors every call of the session is reported with (Errors.h). The launch
// protocol (LaunchProtocol.h) the session chose at open makes its calls
// through it; nothing here knows which protocol that is.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_LIB_CLIENTSESSION_H
#define EXECUTORRUNTIME_LIB_CLIENTSESSION_H

#include "LinkedObjects.h"
#include "ExecutorRuntime/Errors.h"
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/Orc/Shared/SimplePackedSerialization.h"
#include "llvm/ExecutionEngine/Orc/Shared/WrapperFunctionUtils.h"

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace executor_studio::runtime {
class LaunchProtocol;
class StreamTransport;

/// Bytes of one SPS-encoded argument list.
template <typename... Tags, typename... Args>
std::vector<char> encodeSPS(const Args &...args) {
  using List = llvm::orc::shared::SPSArgList<Tags...>;
  std::vector<char> bytes(List::size(args...));
  llvm::orc::shared::SPSOutputBuffer out(bytes.data(), bytes.size());
  bool ok = List::serialize(out, args...);
  (void)ok;
  assert(ok && "SPS serialization failed");
  return bytes;
}

struct ExecutorClient::Impl {
  Impl();
  ~Impl();

  /// This session among all of this process's (never reused): what a
  /// thread's cache of the entry it launched last is keyed by.
  const uint64_t id;

  /// The executor, when this client started it (spawn): how it ended is
  /// known when the session is lost. Declared first: it outlives the
  /// session, whose end lets it exit.
  std::unique_ptr<executor_studio::Subprocess> child;
  int64_t childPid = 0;
  /// The session's PID, read from where kSessionPidAddressSymbol says.
  uint64_t pidRead = 0;
  mutable std::mutex childMutex;
  std::string address;
  std::string connected;
  /// False once the session is closed, lost to a lie (malformed), or
  /// given up after a time-out.
  mutable std::atomic<bool> open{false};
  std::unique_ptr<llvm::orc::ExecutionSession> es;
  /// The linker's memory manager (LinkedObjects::debugSafeMemory).
  std::unique_ptr<llvm::jitlink::JITLinkMemoryManager> memory;
  std::unique_ptr<llvm::orc::ObjectLinkingLayer> linker;
  /// Where the linked objects went: crash reports are named against them.
  std::shared_ptr<LinkedObjects> linkedObjects;
  /// The executor runs on this host (a Unix socket or loopback): its
  /// library files are ours.
  bool sameHost = false;
  llvm::orc::JITDylib *process = nullptr;
  /// How this session launches (chosen once at open from the bootstrap
  /// symbols) and which executor that says it is.
  std::unique_ptr<LaunchProtocol> protocol;
  ExecutorKind kind = ExecutorKind::ExecutorServer;
  /// The session's transport (owned by the EPC): what the executor said
  /// when it hung up.
  StreamTransport *transport = nullptr;
  /// How long one call may take (0: no limit); a call that took longer
  /// closed the session.
  std::chrono::milliseconds launchTimeout{0};
  std::atomic<bool> timedOut{false};
  /// How long the rest of a message that began may take (the liveness
  /// time-out).
  std::chrono::milliseconds liveness{30000};

  mutable std::mutex mutex;
  std::map<std::string, llvm::orc::JITDylib *> objects;
  /// Entries looked up, by object ("": any) and name; found without
  /// building a key (a launch looks its entry up each time).
  std::map<std::string,
           std::map<std::string, llvm::orc::ExecutorAddr, std::less<>>,
           std::less<>>
      entries;

  std::string timeLimitMessage() const;
  /// The typed errors (Errors.h) of this session.
  llvm::Error error(const llvm::Twine &message) const;
  llvm::Error closed() const;
  /// The executor's reply to `what` is not what the call expects
  /// (`detail` says how): nothing of it was used, and the session ends
  /// (an executor that lies once is not asked again).
  llvm::Error malformed(const std::string &what, const llvm::Twine &detail);
  llvm::Error refused(const std::string &what, const std::string &reason) const;
  llvm::Error timeLimitPassed(const std::string &what,
                              const std::string &detail) const;
  /// The executor stopped with its server (SIGTERM): `what` happened.
  llvm::Error shuttingDown(const std::string &what) const;
  /// The session is gone during `what`: the crash the executor reported
  /// (executor-server names the kernel and the signal), else `detail`.
  llvm::Error lost(const std::string &what, const std::string &detail) const;
  /// The executor this client started ended during `what`: how (its exit
  /// status), as a KernelCrashed naming the kernel of `what` when a signal
  /// ended it; nothing when it has not ended within 2 s (the connection
  /// broke some other way).
  std::optional<llvm::Error> childEnded(const std::string &what) const;
  /// The error of a direct call that failed during `what`.
  llvm::Error directFailed(const std::string &what, llvm::Error err);
  /// Whether executor-server's reply to `what` says ok (its first word);
  /// the error it carries otherwise.
  llvm::Error replyStatus(const llvm::orc::shared::WrapperFunctionBuffer &reply,
                          const std::string &what);

  /// The address of `entry` in `object` (empty: in any loaded object,
  /// then the executor process), looked up once.
  llvm::Expected<llvm::orc::ExecutorAddr> findEntry(const std::string &entry,
                                                    const std::string &object);
  /// Every loaded object, then the executor process.
  llvm::orc::JITDylibSearchOrder everything() const;

  /// One wrapper call, waited for on this thread, which reads the socket
  /// itself while no other thread does (no hand-over from a reader thread).
  llvm::orc::shared::WrapperFunctionBuffer
  callAndWait(llvm::orc::ExecutorAddr function, llvm::ArrayRef<char> request);
  /// The reply of a wrapper call of `function`, or the error.
  llvm::Expected<llvm::orc::shared::WrapperFunctionBuffer>
  callRemote(llvm::orc::ExecutorAddr function, llvm::ArrayRef<char> request,
             const std::string &what);
  /// A wrapper call whose reply nobody waits for.
  void callAndForget(llvm::orc::ExecutorAddr function,
                     llvm::ArrayRef<char> request);
};

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_LIB_CLIENTSESSION_H
