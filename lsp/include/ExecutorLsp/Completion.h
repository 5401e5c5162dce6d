//===- Completion.h - textDocument/completion -------------------*- C++ -*-===//
//
// Completion as mlir-lsp-server offers it (the parser, run again with a code
// completion hook, says what it expects), plus the entries of a kernel
// module after `@module::@` and the catalyst dialect's discardable
// attributes.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_COMPLETION_H
#define EXECUTORLSP_COMPLETION_H

#include "ExecutorLsp/Forward.h"

namespace executor_studio {
namespace lsp {

llvm::lsp::CompletionList getCodeCompletion(const TextFile &file,
                                            const llvm::lsp::Position &pos);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_COMPLETION_H
