//===- DebugSupport.cpp - kernels a debugger and a crash report can see ---===//
#include "DebugSupport.h"
#include "CrashReport.h"

#include "llvm/ExecutionEngine/Orc/Shared/OrcRTBridge.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/JITLoaderGDB.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/RegisterEHFrames.h"

#include <dlfcn.h>

/// Every registration of unwind tables in a session (LLVM's for the
/// kernels it links, whichever ORC path asks for it) goes through libgcc's
/// __register_frame, which only queues the tables: libgcc sorts them, with
/// malloc, at the first lookup after. That lookup must not be the crash
/// report's (a signal handler, maybe interrupting malloc itself: found by
/// TSan), so the session's own definition registers, then looks up once
/// (prepareUnwinder). LLVM's target-process code is linked into this
/// program, so its calls come here; libgcc's is the next definition.
extern "C" void __register_frame(void *begin) {
  using Register = void (*)(void *);
  static Register next =
      reinterpret_cast<Register>(dlsym(RTLD_NEXT, "__register_frame"));
  if (!next)
    return; // no libgcc unwinder: nothing to register with
  next(begin);
  executor_studio::runtime::prepareUnwinder();
}

namespace executor_studio::runtime {

std::unique_ptr<Service> makeDebugSupportService() {
  using llvm::orc::ExecutorAddr;
  namespace rt = llvm::orc::rt;
  return std::make_unique<Service>(std::vector<Service::Symbol>{
      {rt::RegisterEHFrameSectionAllocActionName,
       ExecutorAddr::fromPtr(&llvm_orc_registerEHFrameSectionAllocAction)},
      {rt::DeregisterEHFrameSectionAllocActionName,
       ExecutorAddr::fromPtr(&llvm_orc_deregisterEHFrameSectionAllocAction)},
      {rt::RegisterJITLoaderGDBAllocActionName,
       ExecutorAddr::fromPtr(&llvm_orc_registerJITLoaderGDBAllocAction)},
  });
}

} // namespace executor_studio::runtime
