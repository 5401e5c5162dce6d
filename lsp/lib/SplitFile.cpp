//===- SplitFile.cpp - `// -----` chunks of a .mlir file --------*- C++ -*-===//
#include "ExecutorLsp/SplitFile.h"

using namespace executor_studio::lsp;

llvm::SmallVector<FileChunk, 1>
executor_studio::lsp::splitFileChunks(llvm::StringRef contents) {
  llvm::SmallVector<FileChunk, 1> chunks;
  size_t chunkStart = 0;
  unsigned chunkLine = 0;
  unsigned line = 0;
  size_t pos = 0;
  while (pos < contents.size()) {
    size_t eol = contents.find('\n', pos);
    size_t next = eol == llvm::StringRef::npos ? contents.size() : eol + 1;
    llvm::StringRef text = contents.slice(pos, next).ltrim(" \t");
    if (text.starts_with("// -----")) {
      chunks.push_back({contents.slice(chunkStart, pos), chunkLine});
      chunkStart = next;
      chunkLine = line + 1;
    }
    pos = next;
    ++line;
  }
  chunks.push_back({contents.drop_front(chunkStart), chunkLine});
  return chunks;
}

bool executor_studio::lsp::mentionsExecutorDialects(llvm::StringRef text) {
  return text.contains("catalyst.") || text.contains("executor.");
}
