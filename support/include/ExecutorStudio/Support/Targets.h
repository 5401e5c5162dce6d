//===- Targets.h - LLVM's targets, registered once by the program -*- C++ -*-===//
//
// Code generation and the TargetRegistry need LLVM's targets registered
// (llvm::InitializeAll*). That is the program's to do, once, at its entry, as
// LLVM's own tools do; library code never does:
// - each tool's main (executor-compile, executor-opt, executor-lsp-server,
//   executor-studio, executor-deploy) and each test's and benchmark's main;
// - the runtime's C ABI (`__catalyst__executor__open`, CAPI.cpp), the entry
//   into the library of a compiled program, which has no main of ours.
// cross-compile-targets and the runtime's ORC services (OrcGenericProtocol)
// then find every target; without it they fail, saying that the program
// did not register them (uninitializedTargetsNote).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_SUPPORT_TARGETS_H
#define EXECUTORSTUDIO_SUPPORT_TARGETS_H

#include <string>

namespace executor_studio {

/// Registers every target this LLVM has (target infos, targets, MC layers,
/// assembly printers). Once per process; later calls do nothing.
void initializeTargets();

/// For a library's message when a target is not found: "" when targets are
/// registered, else a note that the program did not call
/// initializeTargets().
std::string uninitializedTargetsNote();

} // namespace executor_studio

#endif // EXECUTORSTUDIO_SUPPORT_TARGETS_H
