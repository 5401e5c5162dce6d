//===- LinkedObjects.cpp - where each linked object's code went -----------===//
#include "LinkedObjects.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/ExecutionEngine/JITLink/JITLink.h"
#include "llvm/ExecutionEngine/Orc/Debugging/ELFDebugObjectPlugin.h"
#include "llvm/ExecutionEngine/Orc/EHFrameRegistrationPlugin.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"

#include <condition_variable>
#include <functional>
#include <set>

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {

namespace {
/// How far `at` is from the start of the function symbol of section
/// `sectionIndex` that holds it (0 when none does).
uint64_t offsetInFunction(const object::ObjectFile &file, uint64_t sectionIndex,
                          uint64_t at) {
  uint64_t best = 0;
  bool found = false;
  for (const object::SymbolRef &symbol : file.symbols()) {
    auto type = symbol.getType();
    auto section = symbol.getSection();
    auto value = symbol.getValue();
    if (!type || !section || !value) {
      consumeError(type.takeError());
      consumeError(section.takeError());
      consumeError(value.takeError());
      continue;
    }
    if (*type != object::SymbolRef::ST_Function ||
        *section == file.section_end() ||
        (*section)->getIndex() != sectionIndex || *value > at)
      continue;
    if (!found || *value > best) {
      best = *value;
      found = true;
    }
  }
  return found ? at - best : 0;
}

/// Where a stand-in finalized allocation is (never a real one).
constexpr uint64_t kStandIn = 1;

/// Whether `G` is a SimpleSegmentAlloc's (its sections "__R--.standard" and
/// the like): ELFDebugObjectPlugin's debug object, in this client.
bool isSegmentAlloc(const jitlink::LinkGraph &G) {
  bool any = false;
  for (const jitlink::Section &section : G.sections()) {
    StringRef name = section.getName();
    if (name.size() != 14 || !name.starts_with("__") || name[5] != '.' ||
        !(name.ends_with(".standard") || name.ends_with(".finalize")))
      return false;
    any = true;
  }
  return any;
}

/// The session's memory manager, but a debug object whose memory cannot be
/// finalized ends the session and is reported finalized at a stand-in
/// address: LLVM 22.1's ELFDebugObjectPlugin sets its promise twice when
/// that finalize fails (std::future_error: the client aborted when the
/// executor was lost or refused just then). The link waiting for it then
/// fails in its own finalize, on the ended session; the stand-in is never
/// deallocated on the executor.
class DebugSafeMemory : public jitlink::JITLinkMemoryManager {
public:
  DebugSafeMemory(jitlink::JITLinkMemoryManager &inner,
                  std::function<void()> endSession)
      : inner(inner), endSession(std::move(endSession)) {}

  void allocate(const jitlink::JITLinkDylib *JD, jitlink::LinkGraph &G,
                OnAllocatedFunction OnAllocated) override {
    if (!isSegmentAlloc(G))
      return inner.allocate(JD, G, std::move(OnAllocated));
    inner.allocate(JD, G, [this, OnAllocated = std::move(OnAllocated)](
                              AllocResult allocated) mutable {
      if (!allocated)
        return OnAllocated(std::move(allocated));
      OnAllocated(std::make_unique<Guarded>(*this, std::move(*allocated)));
    });
  }
  /// Waits until no debug object's finalize is in flight (its callback
  /// returned): LLVM 22.1's notifyFailed waits for it under the lock its
  /// callback takes (a deadlock when a link failed meanwhile).
  void awaitFinalizes() {
    std::unique_lock<std::mutex> lock(mutex);
    idle.wait(lock, [&] { return inFlight == 0; });
  }
  void deallocate(std::vector<FinalizedAlloc> allocs,
                  OnDeallocatedFunction OnDeallocated) override {
    std::vector<FinalizedAlloc> real;
    for (FinalizedAlloc &alloc : allocs)
      if (alloc.getAddress().getValue() == kStandIn)
        alloc.release();
      else
        real.push_back(std::move(alloc));
    if (real.empty())
      return OnDeallocated(Error::success());
    inner.deallocate(std::move(real), std::move(OnDeallocated));
  }

private:
  class Guarded : public InFlightAlloc {
  public:
    Guarded(DebugSafeMemory &memory, std::unique_ptr<InFlightAlloc> alloc)
        : memory(memory), alloc(std::move(alloc)) {}
    void finalize(OnFinalizedFunction OnFinalized) override {
      {
        std::lock_guard<std::mutex> lock(memory.mutex);
        ++memory.inFlight;
      }
      alloc->finalize([&memory = memory, OnFinalized = std::move(OnFinalized)](
                          Expected<FinalizedAlloc> done) mutable {
        if (done) {
          OnFinalized(std::move(done));
        } else {
          consumeError(done.takeError());
          memory.endSession();
          OnFinalized(FinalizedAlloc(ExecutorAddr(kStandIn)));
        }
        std::lock_guard<std::mutex> lock(memory.mutex);
        if (--memory.inFlight == 0)
          memory.idle.notify_all();
      });
    }
    void abandon(OnAbandonedFunction OnAbandoned) override {
      alloc->abandon(std::move(OnAbandoned));
    }

  private:
    DebugSafeMemory &memory;
    std::unique_ptr<InFlightAlloc> alloc;
  };

  jitlink::JITLinkMemoryManager &inner;
  std::function<void()> endSession;
  std::mutex mutex;
  std::condition_variable idle;
  int inFlight = 0;
};

/// Set while a debug object is made on this thread: whether ORC reported an
/// error meanwhile (the session's error reporter, addTo).
thread_local bool *errorReportedHere = nullptr;

/// LLVM's ELFDebugObjectPlugin, for objects with DWARF sections only (it
/// registers no other: RequireDebugSections), told of a failed link only
/// while it holds that link's pending debug object. LLVM 22.1's notifyFailed
/// calls through the pending object it looks up without checking that there
/// is one: SIGSEGV whenever a link fails without one, as when the executor
/// is lost or lies during send_binary (the allocation for the debug object
/// fails then, or the link does before it is made).
class GuardedDebugObjects : public ObjectLinkingLayer::Plugin {
public:
  GuardedDebugObjects(std::shared_ptr<ELFDebugObjectPlugin> inner,
                      DebugSafeMemory *memory)
      : inner(std::move(inner)), memory(memory) {}

  void notifyMaterializing(MaterializationResponsibility &MR,
                           jitlink::LinkGraph &G, jitlink::JITLinkContext &Ctx,
                           MemoryBufferRef InputObject) override {
    if (!hasDebugSections(InputObject))
      return; // the plugin never hears of this link
    bool failed = false;
    errorReportedHere = &failed;
    inner->notifyMaterializing(MR, G, Ctx, InputObject);
    errorReportedHere = nullptr;
    if (!failed) {
      std::lock_guard<std::mutex> lock(mutex);
      pending.insert(&MR);
    }
  }
  void modifyPassConfig(MaterializationResponsibility &MR,
                        jitlink::LinkGraph &G,
                        jitlink::PassConfiguration &Config) override {
    inner->modifyPassConfig(MR, G, Config);
    if (!isPending(MR))
      return;
    // After the plugin's own passes: it has registered the debug object.
    Config.PostFixupPasses.push_back([this, &MR](jitlink::LinkGraph &) {
      forget(MR);
      return Error::success();
    });
  }
  Error notifyEmitted(MaterializationResponsibility &MR) override {
    forget(MR);
    return inner->notifyEmitted(MR);
  }
  Error notifyFailed(MaterializationResponsibility &MR) override {
    if (!forget(MR))
      return Error::success();
    if (memory)
      memory->awaitFinalizes();
    return inner->notifyFailed(MR);
  }
  Error notifyRemovingResources(JITDylib &JD, ResourceKey K) override {
    return inner->notifyRemovingResources(JD, K);
  }
  void notifyTransferringResources(JITDylib &JD, ResourceKey DstKey,
                                   ResourceKey SrcKey) override {
    inner->notifyTransferringResources(JD, DstKey, SrcKey);
  }

private:
  static bool hasDebugSections(MemoryBufferRef object) {
    auto file = object::ObjectFile::createObjectFile(object);
    if (!file) {
      consumeError(file.takeError());
      return false;
    }
    for (const object::SectionRef &section : (*file)->sections()) {
      auto name = section.getName();
      if (!name)
        consumeError(name.takeError());
      else if (name->starts_with(".debug_"))
        return true;
    }
    return false;
  }
  bool isPending(MaterializationResponsibility &MR) {
    std::lock_guard<std::mutex> lock(mutex);
    return pending.count(&MR) != 0;
  }
  /// Whether the plugin held `MR`'s pending debug object (it no longer does).
  bool forget(MaterializationResponsibility &MR) {
    std::lock_guard<std::mutex> lock(mutex);
    return pending.erase(&MR) != 0;
  }

  std::shared_ptr<ELFDebugObjectPlugin> inner;
  DebugSafeMemory *memory;
  std::mutex mutex;
  std::set<MaterializationResponsibility *> pending;
};
} // namespace

std::unique_ptr<jitlink::JITLinkMemoryManager>
LinkedObjects::debugSafeMemory(jitlink::JITLinkMemoryManager &inner,
                               std::function<void()> endSession) {
  return std::make_unique<DebugSafeMemory>(inner, std::move(endSession));
}

std::shared_ptr<LinkedObjects>
LinkedObjects::addTo(ExecutionSession &es, ObjectLinkingLayer &linker,
                     jitlink::JITLinkMemoryManager *memory) {
  auto objects = std::make_shared<LinkedObjects>();
  linker.addPlugin(objects);
  // The kernels' unwind tables, so a crash report walks through kernel
  // frames; an executor without the action (a stock ORC one may lack it)
  // just reports less.
  if (auto unwind = EHFrameRegistrationPlugin::Create(es))
    linker.addPlugin(std::move(*unwind));
  else
    consumeError(unwind.takeError());
  // Objects with debug info become visible to a debugger attached to the
  // session (the GDB JIT interface); objects without cost nothing.
  // ORC's errors go nowhere (the calls that fail report them), but one
  // while a debug object is made marks it as not made.
  es.setErrorReporter([](Error err) {
    if (errorReportedHere)
      *errorReportedHere = true;
    consumeError(std::move(err));
  });
  Error err = Error::success();
  auto debugger = std::make_shared<ELFDebugObjectPlugin>(
      es, /*RequireDebugSections=*/true, /*AutoRegisterCode=*/true, err);
  if (!err) {
    linker.addPlugin(std::make_shared<GuardedDebugObjects>(
        std::move(debugger), static_cast<DebugSafeMemory *>(memory)));
    objects->debuggerRegistration = true;
  } else {
    consumeError(std::move(err));
  }
  return objects;
}

bool isLoopbackHost(StringRef address) {
  StringRef host = address.rsplit(':').first;
  if (host.starts_with("[") && host.ends_with("]"))
    host = host.drop_front().drop_back();
  else if (host.count(':')) // an IPv6 address without a port
    host = address;
  return host == "localhost" || host.starts_with("127.") || host == "::1";
}

void LinkedObjects::notifyMaterializing(MaterializationResponsibility &,
                                        jitlink::LinkGraph &G,
                                        jitlink::JITLinkContext &,
                                        MemoryBufferRef InputObject) {
  if (!InputObject.getBufferSize())
    return;
  std::lock_guard<std::mutex> lock(mutex);
  byGraph[G.getName()] = objects.size();
  objects.push_back({G.getName(), MemoryBuffer::getMemBufferCopy(
                                      InputObject.getBuffer(), G.getName())});
}

void LinkedObjects::modifyPassConfig(MaterializationResponsibility &,
                                     jitlink::LinkGraph &,
                                     jitlink::PassConfiguration &Config) {
  // Where each block was in its section, before the link moves it.
  auto original = std::make_shared<DenseMap<jitlink::Block *, uint64_t>>();
  Config.PrePrunePasses.push_back([original](jitlink::LinkGraph &G) {
    for (jitlink::Section &section : G.sections())
      for (jitlink::Block *block : section.blocks())
        (*original)[block] = block->getAddress().getValue();
    return Error::success();
  });
  Config.PostAllocationPasses.push_back(
      [this, original](jitlink::LinkGraph &G) {
        std::lock_guard<std::mutex> lock(mutex);
        auto object = byGraph.find(G.getName());
        if (object == byGraph.end())
          return Error::success();
        for (jitlink::Section &section : G.sections()) {
          if (section.getMemLifetime() == orc::MemLifetime::NoAlloc)
            continue;
          for (jitlink::Block *block : section.blocks()) {
            auto at = original->find(block);
            if (at == original->end() || !block->getSize())
              continue;
            uint64_t start = block->getAddress().getValue();
            placed.push_back({start, start + block->getSize(), object->second,
                              section.getName().str(), at->second});
          }
        }
        return Error::success();
      });
}

void LinkedObjects::symbolize(std::vector<CrashFrame> &frames,
                              bool sameHost) const {
  symbolize::LLVMSymbolizer::Options options;
  options.Demangle = true;
  symbolize::LLVMSymbolizer symbolizer(options);
  std::lock_guard<std::mutex> lock(mutex);
  std::map<size_t, std::unique_ptr<object::ObjectFile>> files;
  for (size_t i = 0; i < frames.size(); ++i) {
    CrashFrame &frame = frames[i];
    // Past the first frame, addresses are return addresses: the call is
    // the instruction before.
    uint64_t lookup = i == 0 ? frame.address : frame.address - 1;
    const Placed *in = nullptr;
    for (const Placed &p : placed)
      if (lookup >= p.start && lookup < p.end) {
        in = &p;
        break;
      }
    if (!in) {
      if (!frame.module.empty() && sameHost &&
          sys::fs::exists(frame.module)) {
        uint64_t moduleLookup = i == 0 ? frame.offset : frame.offset - 1;
        auto info = symbolizer.symbolizeCode(
            frame.module, {moduleLookup, object::SectionedAddress::UndefSection});
        if (info && info->FunctionName != DILineInfo::BadString) {
          frame.function = info->FunctionName;
          frame.offset = info->StartAddress ? moduleLookup + (i == 0 ? 0 : 1) -
                                                  *info->StartAddress
                                            : 0;
        } else if (!info) {
          consumeError(info.takeError());
        }
      }
      continue;
    }
    frame.inKernel = true;
    const Object &object = objects[in->object];
    frame.module = object.name;
    auto &file = files[in->object];
    if (!file) {
      auto parsed = object::ObjectFile::createObjectFile(*object.bytes);
      if (!parsed) {
        consumeError(parsed.takeError());
        continue;
      }
      file = std::move(*parsed);
    }
    uint64_t sectionIndex = object::SectionedAddress::UndefSection;
    for (const object::SectionRef &section : file->sections()) {
      auto name = section.getName();
      if (name && *name == in->section) {
        sectionIndex = section.getIndex();
        break;
      }
      if (!name)
        consumeError(name.takeError());
    }
    uint64_t inSection = in->original + (lookup - in->start);
    uint64_t at = inSection + (i == 0 ? 0 : 1);
    auto inlined =
        symbolizer.symbolizeInlinedCode(*file, {inSection, sectionIndex});
    if (!inlined) {
      consumeError(inlined.takeError());
      continue;
    }
    // Innermost first: a kernel inlined into its wrapper is its own frame,
    // at the same address.
    std::vector<CrashFrame> expanded;
    for (uint32_t f = 0; f < inlined->getNumberOfFrames(); ++f) {
      const DILineInfo &info = inlined->getFrame(f);
      CrashFrame logical = frame;
      logical.inlined = f + 1 < inlined->getNumberOfFrames();
      if (info.FunctionName != DILineInfo::BadString)
        logical.function = info.FunctionName;
      if (info.StartAddress && !logical.inlined)
        logical.offset = at - *info.StartAddress;
      else if (!logical.inlined)
        logical.offset = offsetInFunction(*file, sectionIndex, at);
      if (info.Line && info.FileName != DILineInfo::BadString) {
        logical.file = info.FileName;
        logical.line = info.Line;
        logical.column = info.Column;
      }
      expanded.push_back(std::move(logical));
    }
    if (expanded.empty())
      continue;
    frame = expanded.front();
    frames.insert(frames.begin() + i + 1, expanded.begin() + 1, expanded.end());
    i += expanded.size() - 1;
  }
}

} // namespace executor_studio::runtime
