//===- FoldingRanges.h - textDocument/foldingRange --------------*- C++ -*-===//
#ifndef EXECUTORLSP_FOLDINGRANGES_H
#define EXECUTORLSP_FOLDINGRANGES_H

#include "ExecutorLsp/Forward.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace executor_studio {
namespace lsp {

struct FoldingRange {
  /// 0-based lines of the file: the first stays visible, the lines after it
  /// up to `endLine` fold.
  unsigned startLine = 0, endLine = 0;
  /// "region" (a region, a dictionary, a `// -----` chunk) or "comment".
  std::string kind;
};

/// Regions and other bracketed text over several lines (from the brackets,
/// so text that does not parse folds too), runs of comment lines, and each
/// chunk of a split file. None past the full-service size.
void getFoldingRanges(const TextFile &file, std::vector<FoldingRange> &ranges);

/// As LSP's FoldingRange.
llvm::json::Value toJSON(const FoldingRange &range);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_FOLDINGRANGES_H
