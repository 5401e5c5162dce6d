//===- LinkedObjects.h - where each linked object's code went ---*- C++ -*-===//
//
// An ObjectLinkingLayer plugin that remembers, for every object the client
// links into a session, the object's bytes and where each of its blocks was
// placed in the executor; crash reports are named against them
// (Backtrace.h). It is also where the client asks for the kernels' unwind
// tables and, for objects with debug info, their registration with the GDB
// JIT interface in the session (LLVM's EHFrameRegistrationPlugin and
// ELFDebugObjectPlugin), when the executor publishes those actions.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_LINKEDOBJECTS_H
#define EXECUTORRUNTIME_LINKEDOBJECTS_H

#include "ExecutorRuntime/Backtrace.h"

#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace executor_studio::runtime {

class LinkedObjects : public llvm::orc::ObjectLinkingLayer::Plugin {
public:
  /// Adds this plugin, and LLVM's unwind-table and debugger registration
  /// where the executor offers them, to `linker`, whose memory manager is
  /// `memory` (from debugSafeMemory; null: another).
  static std::shared_ptr<LinkedObjects>
  addTo(llvm::orc::ExecutionSession &es, llvm::orc::ObjectLinkingLayer &linker,
        llvm::jitlink::JITLinkMemoryManager *memory = nullptr);
  /// The memory manager for the session's linker: `inner`, but a debug
  /// object whose memory cannot be finalized calls `endSession` instead of
  /// reaching LLVM's failure path for it (see LinkedObjects.cpp).
  static std::unique_ptr<llvm::jitlink::JITLinkMemoryManager>
  debugSafeMemory(llvm::jitlink::JITLinkMemoryManager &inner,
                  std::function<void()> endSession);

  /// Names `frames` (parseCrashFrames): frames in a linked object get its
  /// name, their function and, with debug info, their source line; frames
  /// in the executor's libraries get their symbol when `sameHost` (the
  /// library file here is the executor's).
  void symbolize(std::vector<CrashFrame> &frames, bool sameHost) const;

  /// Whether the session registers objects with debug info with its
  /// debugger interface.
  bool registersWithDebugger() const { return debuggerRegistration; }

  void notifyMaterializing(llvm::orc::MaterializationResponsibility &MR,
                           llvm::jitlink::LinkGraph &G,
                           llvm::jitlink::JITLinkContext &Ctx,
                           llvm::MemoryBufferRef InputObject) override;
  void modifyPassConfig(llvm::orc::MaterializationResponsibility &MR,
                        llvm::jitlink::LinkGraph &G,
                        llvm::jitlink::PassConfiguration &Config) override;
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility &) override {
    return llvm::Error::success();
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib &,
                                      llvm::orc::ResourceKey) override {
    return llvm::Error::success();
  }
  void notifyTransferringResources(llvm::orc::JITDylib &,
                                   llvm::orc::ResourceKey,
                                   llvm::orc::ResourceKey) override {}

private:
  struct Object {
    std::string name;
    std::unique_ptr<llvm::MemoryBuffer> bytes;
  };
  /// A placed block: [start, end) in the executor, at `original` in section
  /// `section` of object `object`.
  struct Placed {
    uint64_t start, end;
    size_t object;
    std::string section;
    uint64_t original;
  };
  mutable std::mutex mutex;
  std::vector<Object> objects;
  std::map<std::string, size_t> byGraph;
  std::vector<Placed> placed;
  bool debuggerRegistration = false;
};

/// Whether `address` (HOST:PORT) names this host: localhost, 127.x.y.z or
/// ::1.
bool isLoopbackHost(llvm::StringRef address);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_LINKEDOBJECTS_H
