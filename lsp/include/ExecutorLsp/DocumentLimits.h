//===- DocumentLimits.h - what the language server parses -------*- C++ -*-===//
//
// The MLIR parser recurses once per nesting level and keeps the IR and the
// AsmParserState of a document in memory; these limits keep a hostile or
// huge document from taking the server down (lsp/README.md, "Limits").
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_DOCUMENTLIMITS_H
#define EXECUTORLSP_DOCUMENTLIMITS_H

#include "ExecutorStudio/Pipeline/InputLimits.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace executor_studio {
namespace lsp {

/// The deepest nesting of `{ ( [ <` a document may have; deeper text is not
/// parsed (the parser's recursion would need a stack without bound). The
/// same limit as every other front end's.
using executor_studio::kMaxNestingDepth;

/// Up to this size a document gets everything: navigation, hover, lenses,
/// previews and the pipeline's diagnostics.
inline constexpr uint64_t kFullServiceBytes = uint64_t(2) << 20;
/// Up to this size a document is still parsed and verified (its
/// diagnostics), without the AsmParserState that navigation, hover, symbols
/// and lenses need, and without pipeline runs. Larger documents are not
/// parsed at all.
inline constexpr uint64_t kParseLimitBytes = uint64_t(16) << 20;

/// The `// -----` chunks of a split file that are parsed and checked (each
/// keeps its own IR, source manager and parser state, about 100 KB even when
/// tiny): the rest of a file with more is one unchecked chunk, and a
/// diagnostic says so. The pipeline worker runs on these chunks only.
inline constexpr size_t kMaxAnalysedChunks = 500;

/// The parsing thread's stack, the nesting check and its message: the same
/// as every other front end's (Pipeline/InputLimits.h).
using executor_studio::findExcessiveNesting;
using executor_studio::nestingRefusal;
using executor_studio::runOnParserStack;

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_DOCUMENTLIMITS_H
