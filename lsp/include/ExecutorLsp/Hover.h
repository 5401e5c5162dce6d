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

#include <optional>

namespace llvm {
namespace lsp {
struct Hover;
struct Position;
} // namespace lsp
} // namespace llvm

namespace executor_studio {
namespace lsp {
class TextFile;

std::optional<llvm::lsp::Hover> findHover(const TextFile &file,
                                          const llvm::lsp::Position &pos);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_HOVER_H
