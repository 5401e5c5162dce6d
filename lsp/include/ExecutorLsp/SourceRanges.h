//===- SourceRanges.h - positions and tokens in a buffer --------*- C++ -*-===//
#ifndef EXECUTORLSP_SOURCERANGES_H
#define EXECUTORLSP_SOURCERANGES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace executor_studio {
namespace lsp {

/// The location of 0-based `line` and byte `column` in the main buffer of
/// `mgr`; a column past the end of the line is its end. Null when `line` is
/// out of range or either is negative.
llvm::SMLoc findLocForLineAndColumn(const llvm::SourceMgr &mgr, int64_t line,
                                    int64_t column);

/// The token that starts at `start` in `buffer`: an identifier (with its
/// sigil) or a string; at least one character unless at a line's end.
llvm::SMRange getTokenRange(llvm::StringRef buffer, llvm::SMLoc start);

/// Whether `range` contains `loc`, its end included (a cursor right after a
/// name still names it).
bool rangeContains(llvm::SMRange range, llvm::SMLoc loc);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_SOURCERANGES_H
