//===- SplitFile.h - `// -----` chunks of a .mlir file ----------*- C++ -*-===//
//
// mlir-opt's --split-input-file convention: a line that starts (after
// indentation) with `// -----` separates independent documents. The language
// server checks each chunk on its own, like mlir-lsp-server.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_SPLITFILE_H
#define EXECUTORLSP_SPLITFILE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace executor_studio {
namespace lsp {

/// One document of a split file.
struct FileChunk {
  /// The text, from the start of the line after the previous marker (or of
  /// the file) to the start of the next marker line (or the end).
  llvm::StringRef text;
  /// The 0-based line of the file on which `text` starts.
  unsigned lineOffset = 0;
};

/// Splits `contents` at `// -----` lines. Always returns at least one chunk.
llvm::SmallVector<FileChunk, 1> splitFileChunks(llvm::StringRef contents);

/// Whether `text` mentions the catalyst or executor dialects, i.e. whether
/// the executor pipeline has anything to say about it.
bool mentionsExecutorDialects(llvm::StringRef text);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_SPLITFILE_H
