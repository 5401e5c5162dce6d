//===- DocumentSymbols.h - textDocument/documentSymbol ----------*- C++ -*-===//
#ifndef EXECUTORLSP_DOCUMENTSYMBOLS_H
#define EXECUTORLSP_DOCUMENTSYMBOLS_H

#include "ExecutorLsp/Forward.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

#include <vector>

namespace executor_studio {
namespace lsp {

/// The outline of `file`: modules (target modules with where they run),
/// functions with their types, other symbols and symbol tables; one
/// `<file-split-N>` namespace per chunk of a split file, as mlir-lsp-server.
void findDocumentSymbols(const TextFile &file,
                         std::vector<llvm::lsp::DocumentSymbol> &symbols);

/// The symbols of a document for a client without
/// `hierarchicalDocumentSymbolSupport`: LSP's flat `SymbolInformation[]`
/// (name, kind, location of the whole symbol, `containerName` of its
/// parent), parents before their children.
llvm::json::Array
flattenDocumentSymbols(const std::vector<llvm::lsp::DocumentSymbol> &symbols,
                       const llvm::lsp::URIForFile &uri);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_DOCUMENTSYMBOLS_H
