//===- DebugSupport.cpp - kernels a debugger and a crash report can see ---===//
#include "DebugSupport.h"

#include "llvm/ExecutionEngine/Orc/Shared/OrcRTBridge.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/JITLoaderGDB.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/RegisterEHFrames.h"

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
