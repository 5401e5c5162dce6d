//===- Hover.h - textDocument/hover -----------------------------*- C++ -*-===//
//
// What the server says about the op, value, block, argument or alias under
// the cursor: the op's ODS summary and description, what the pipeline makes
// of launches and target modules, the lowering of executor ops, and the
// generic form (as mlir-lsp-server shows it).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_HOVER_H
#define EXECUTORLSP_HOVER_H

#include "ExecutorLsp/Forward.h"

#include <optional>

namespace executor_studio {
namespace lsp {

std::optional<llvm::lsp::Hover> findHover(const TextFile &file,
                                          const llvm::lsp::Position &pos);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_HOVER_H
