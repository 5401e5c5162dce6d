//===- TargetTripleActions.h - set catalyst.target.triple -------*- C++ -*-===//
#ifndef EXECUTORLSP_TARGETTRIPLEACTIONS_H
#define EXECUTORLSP_TARGETTRIPLEACTIONS_H

#include "ExecutorLsp/Forward.h"

#include <vector>

namespace executor_studio {
namespace lsp {

/// The code action kind of these actions.
inline constexpr const char *kTargetTripleActionKind = "refactor.rewrite";

/// Inside a `catalyst.target` module (the innermost one around the start of
/// `range`): one action per triple it may be compiled for (this host's and
/// aarch64-unknown-linux-gnu, the architectures Catalyst builds LLVM for),
/// except the one it has, each setting `catalyst.target.triple` in the
/// module's header and keeping its other target options.
void getTargetTripleActions(const TextFile &file, const llvm::lsp::Range &range,
                            std::vector<llvm::lsp::CodeAction> &actions);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_TARGETTRIPLEACTIONS_H
