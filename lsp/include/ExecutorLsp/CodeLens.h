//===- CodeLens.h - textDocument/codeLens -----------------------*- C++ -*-===//
//
// "Preview pipeline" lenses on target modules and on the launches into them:
// each runs the client's `executor.showPipelinePreview` command, which opens
// `executor/pipelinePreview` at the first snapshot of the pass that turns
// them into something else.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_CODELENS_H
#define EXECUTORLSP_CODELENS_H

#include "ExecutorLsp/Forward.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace executor_studio {
namespace lsp {

/// What a code lens offers: a pipeline preview of one chunk, opened at the
/// first snapshot of `pass`.
struct PreviewLens {
  /// Where it shows (the op's name).
  unsigned line = 0, startColumn = 0, endColumn = 0;
  std::string title;
  unsigned chunk = 0;
  std::string pass;
};

void getPreviewLenses(const TextFile &file, std::vector<PreviewLens> &lenses);

/// Where each of the default pipeline's leading module passes (before its
/// first nested pipeline) first runs: its snapshot index.
llvm::StringMap<unsigned> getDefaultPassIndices();

/// The lenses of `file` as LSP `CodeLens[]`: the previews, each with the
/// command's argument `{uri, chunk, pass, passIndex?}`, then a "Launch"
/// lens on each kernel of a dispatched target (`executor.launchKernel`,
/// argument `{uri, kernel}`: the client asks `executor/launch`).
llvm::json::Array
getCodeLenses(const TextFile &file,
              const llvm::StringMap<unsigned> &defaultPassIndices);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_CODELENS_H
