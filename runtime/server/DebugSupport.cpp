//===- DebugSupport.cpp - kernels a debugger and a crash report can see ---===//
#include "DebugSupport.h"

#include "llvm/ExecutionEngine/Orc/Shared/OrcRTBridge.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/JITLoaderGDB.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/RegisterEHFrames.h"

namespace executor_studio::runtime {

void addDebugSupportSymbols(llvm::StringMap<llvm::orc::ExecutorAddr> &symbols) {
  using llvm::orc::ExecutorAddr;
  namespace rt = llvm::orc::rt;
  symbols[rt::RegisterEHFrameSectionAllocActionName] =
      ExecutorAddr::fromPtr(&llvm_orc_registerEHFrameSectionAllocAction);
  symbols[rt::DeregisterEHFrameSectionAllocActionName] =
      ExecutorAddr::fromPtr(&llvm_orc_deregisterEHFrameSectionAllocAction);
  symbols[rt::RegisterJITLoaderGDBAllocActionName] =
      ExecutorAddr::fromPtr(&llvm_orc_registerJITLoaderGDBAllocAction);
}

} // namespace executor_studio::runtime
