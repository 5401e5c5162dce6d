//===- SemanticTokens.h - textDocument/semanticTokens -----------*- C++ -*-===//
#ifndef EXECUTORLSP_SEMANTICTOKENS_H
#define EXECUTORLSP_SEMANTICTOKENS_H

#include "ExecutorLsp/Forward.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace executor_studio {
namespace lsp {

/// The legend: token types and modifiers, by index.
llvm::ArrayRef<llvm::StringLiteral> getSemanticTokenTypes();
llvm::ArrayRef<llvm::StringLiteral> getSemanticTokenModifiers();

/// Lines [firstLine, lastLine] of the file, or all of it.
struct LineSpan {
  unsigned firstLine = 0, lastLine = ~0u;
};

/// The tokens of `file` in LSP's relative encoding (5 numbers a token).
/// Ops, SSA values, block labels and arguments, symbols and aliases come
/// from the parser's state where the chunk parsed; types, attributes,
/// strings, numbers and comments (and everything in a chunk that does not
/// parse) from a lexer. Empty past the full-service size.
void getSemanticTokens(const TextFile &file, std::vector<uint32_t> &data,
                       std::optional<LineSpan> span = std::nullopt);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_SEMANTICTOKENS_H
