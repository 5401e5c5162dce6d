//===- Targets.cpp - LLVM's targets, registered once by the program -------===//
#include "ExecutorStudio/Support/Targets.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"

#include <mutex>

void executor_studio::initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
  });
}

std::string executor_studio::uninitializedTargetsNote() {
  if (!llvm::TargetRegistry::targets().empty())
    return "";
  return " (no LLVM target is registered: the program must call "
         "executor_studio::initializeTargets() at its entry)";
}
