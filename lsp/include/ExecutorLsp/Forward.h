//===- Forward.h - the names the language server's headers use --*- C++ -*-===//
//
// Declarations of the LSP types (llvm/Support/LSP/Protocol.h) and of the
// document model (TextFile.h, ParsedChunk.h) that the features' headers
// name, so that a header declares its functions without including what it
// only names; as mlir/Support/LLVM.h does for MLIR. `proto` is llvm::lsp.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_FORWARD_H
#define EXECUTORLSP_FORWARD_H

namespace llvm {
namespace lsp {
struct CodeAction;
struct CodeActionParams;
struct CompletionList;
struct Diagnostic;
struct Hover;
struct Location;
struct Position;
struct Range;
struct TextEdit;
class URIForFile;
} // namespace lsp
} // namespace llvm

namespace executor_studio {
namespace lsp {
class TextFile;
struct ParsedChunk;

/// The LSP types, as the server's code names them (`proto::Position`).
namespace proto = llvm::lsp;
} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_FORWARD_H
