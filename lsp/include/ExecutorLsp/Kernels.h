//===- Kernels.h - the entries a catalyst.launch_kernel calls ---*- C++ -*-===//
//
// A kernel is a function of a target module (`catalyst.target`, or one
// dispatched with `catalyst.dispatch`) that `catalyst.launch_kernel
// @module::@entry` calls. This file answers what the language server says
// about kernels: completion of `@module::@`, hover on a kernel (its
// signature and where it runs), and the quick fixes of the verifier's "did
// you mean" for a callee that does not resolve.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_KERNELS_H
#define EXECUTORLSP_KERNELS_H

#include "ExecutorLsp/Forward.h"

#include "ExecutorLsp/VerifierFixIts.h"

#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/SMLoc.h"

#include <vector>

namespace mlir {
class DialectRegistry;
class ModuleOp;
class Operation;
} // namespace mlir

namespace catalyst {
class LaunchKernelOp;
} // namespace catalyst

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace executor_studio {
namespace lsp {

/// When the text before `loc` is `@module::@prefix` (a callee being typed):
/// appends the functions of the module `@module` of the chunk, each with its
/// signature and where it runs. The module is found in the text and parsed
/// on its own, so this works while the rest of the chunk does not parse.
void completeKernelEntries(const ParsedChunk &chunk, llvm::SMLoc loc,
                           const mlir::DialectRegistry &registry,
                           llvm::lsp::CompletionList &list);

/// The target module a catalyst.launch_kernel calls into, if it resolves.
mlir::ModuleOp getLaunchTarget(catalyst::LaunchKernelOp launch);

/// When `op` is a kernel: writes its signature and where it runs (target,
/// triple, executor address or linked into the host) and returns true.
bool describeKernel(llvm::raw_ostream &os, mlir::Operation *op);

/// For a catalyst.launch_kernel (`op`) whose callee does not resolve: one
/// quick fix per kernel the verifier's error suggests ("did you mean",
/// catalyst::suggestCallees), replacing the callee with it.
void getKernelSpellingFixes(const ParsedChunk &chunk, mlir::Operation *op,
                            std::vector<FixIt> &fixes);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_KERNELS_H
