//===- ParsedChunk.h - one `// -----` document, parsed ----------*- C++ -*-===//
//
// The document model the LSP features work on: a chunk's text, its parsed IR
// and the parser's AsmParserState, with conversions between the chunk's
// buffer and the positions of the whole file. It knows no JSON; the features
// in lsp/lib (rename, code actions, semantic tokens ...) read it through
// TextFile::getChunks().
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_PARSEDCHUNK_H
#define EXECUTORLSP_PARSEDCHUNK_H

#include "ExecutorLsp/SourceRanges.h"

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Block.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/SourceMgr.h"

namespace executor_studio {
namespace lsp {

struct ParsedChunk {
  unsigned index = 0;
  /// The file line the chunk starts on.
  unsigned lineOffset = 0;
  llvm::SourceMgr sourceMgr;
  /// Empty when the chunk did not parse or the document is past the
  /// full-service size (DocumentLimits.h).
  mlir::AsmParserState asmState;
  mlir::FallbackAsmResourceMap fallbackResourceMap;
  /// The parsed top-level ops; empty when parsing failed. (MLIR's IR has no
  /// const API: queries on a const chunk still walk it.)
  mutable mlir::Block parsedIR;
  /// Whether the chunk parsed and verified without errors.
  bool valid = true;
  /// Whether the text may be parsed again (completion, formatting): false
  /// when it nests too deep or the document is too big for navigation.
  bool reparsable = true;

  llvm::StringRef getBuffer() const {
    return sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  }
  /// Whether the chunk has an AsmParserState (it parsed, in full service).
  bool hasParserState() const {
    return !parsedIR.empty() &&
           asmState.getOpDefs().begin() != asmState.getOpDefs().end();
  }

  /// A position of the file as a location in this chunk (null when it lies
  /// outside the chunk's text).
  llvm::SMLoc getLoc(const llvm::lsp::Position &pos) const {
    if (pos.line < static_cast<int64_t>(lineOffset) || pos.character < 0)
      return llvm::SMLoc();
    return findLocForLineAndColumn(sourceMgr, pos.line - lineOffset,
                                   pos.character);
  }
  llvm::lsp::Position getPosition(llvm::SMLoc loc) const {
    llvm::lsp::Position pos(const_cast<llvm::SourceMgr &>(sourceMgr), loc);
    pos.line += lineOffset;
    return pos;
  }
  llvm::lsp::Range getRange(llvm::SMRange range) const {
    return llvm::lsp::Range(getPosition(range.Start), getPosition(range.End));
  }
  llvm::lsp::Location getLocation(const llvm::lsp::URIForFile &uri,
                                  llvm::SMRange range) const {
    return llvm::lsp::Location(uri, getRange(range));
  }
  /// The text of `range` (empty when invalid).
  static llvm::StringRef getText(llvm::SMRange range) {
    if (!range.isValid())
      return {};
    return llvm::StringRef(range.Start.getPointer(),
                           range.End.getPointer() - range.Start.getPointer());
  }
  /// Whether `loc` is on `def`'s definition or on one of its uses; that
  /// range in `overlapped` when given.
  static bool isDefOrUse(const mlir::AsmParserState::SMDefinition &def,
                         llvm::SMLoc loc, llvm::SMRange *overlapped = nullptr);
};

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_PARSEDCHUNK_H
