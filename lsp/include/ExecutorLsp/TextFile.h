//===- TextFile.h - one open .mlir document ---------------------*- C++ -*-===//
//
// A document as the language server sees it: its text split into `// -----`
// chunks, each parsed (with mlir::AsmParserState) and verified on its own.
// It owns parsing only: the features (Hover.h, XRefs.h, DocumentSymbols.h,
// Completion.h, CodeLens.h, ...) read its chunks (ParsedChunk.h). Positions
// are 0-based lines and byte columns of the whole file, as mlir-lsp-server
// uses them.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_TEXTFILE_H
#define EXECUTORLSP_TEXTFILE_H

#include "ExecutorLsp/Forward.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace executor_studio {
namespace lsp {

struct TextFileOptions {
  /// Let ops of dialects that are not registered through the parser.
  bool allowUnregisteredDialects = false;
  /// Verifies isolated regions in parallel on this pool when set.
  llvm::ThreadPoolInterface *threadPool = nullptr;
};

class TextFile {
public:
  /// Parses and verifies every chunk of `contents`; appends the parser's and
  /// the verifier's diagnostics to `diagnostics`.
  TextFile(const llvm::lsp::URIForFile &uri, std::string contents,
           int64_t version, const mlir::DialectRegistry &registry,
           const TextFileOptions &options,
           std::vector<llvm::lsp::Diagnostic> &diagnostics);
  ~TextFile();
  TextFile(const TextFile &) = delete;
  TextFile &operator=(const TextFile &) = delete;

  int64_t getVersion() const;
  const std::string &getContents() const;
  unsigned getNumChunks() const;
  /// Whether every chunk parsed and verified.
  bool isValid() const;
  /// Whether the document is small enough for navigation, previews and the
  /// pipeline's diagnostics (DocumentLimits.h).
  bool hasFullService() const;
  const llvm::lsp::URIForFile &getURI() const;
  /// The context the chunks were parsed in.
  mlir::MLIRContext &getContext() const;
  /// The `// -----` chunks (ParsedChunk.h): the document model that the
  /// features in lsp/lib work on. Always at least one.
  llvm::ArrayRef<std::unique_ptr<ParsedChunk>> getChunks() const;
  /// The chunk that holds line `pos.line` of the file.
  ParsedChunk &getChunkFor(const llvm::lsp::Position &pos) const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_TEXTFILE_H
