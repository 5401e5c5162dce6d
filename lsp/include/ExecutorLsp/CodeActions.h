//===- CodeActions.h - textDocument/codeAction ------------------*- C++ -*-===//
#ifndef EXECUTORLSP_CODEACTIONS_H
#define EXECUTORLSP_CODEACTIONS_H

#include "ExecutorLsp/Forward.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace executor_studio {
namespace lsp {

/// Quick fixes for `diagnostics` (those the client shows in the range it
/// asks about): the verifier fix-its of the op each one is attached to
/// (VerifierFixIts.h), and for the parser's and verifier's diagnostics the
/// `// expected-<severity> @below {{...}}` line that a `-verify-diagnostics`
/// test needs, as mlir-lsp-server offers it.
void getCodeActions(const TextFile &file,
                    llvm::ArrayRef<llvm::lsp::Diagnostic> diagnostics,
                    std::vector<llvm::lsp::CodeAction> &actions);

/// `textDocument/codeAction`: of the kinds the request asks for (`only`;
/// all when it names none), the quick fixes for its diagnostics (above) and
/// the target-triple refactorings of its range (TargetTripleActions.h), these
/// where no quick fix is asked about (or when they are asked for).
void getCodeActions(const TextFile &file,
                    const llvm::lsp::CodeActionParams &params,
                    std::vector<llvm::lsp::CodeAction> &actions);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_CODEACTIONS_H
