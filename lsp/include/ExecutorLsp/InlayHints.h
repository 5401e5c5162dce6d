//===- InlayHints.h - textDocument/inlayHint --------------------*- C++ -*-===//
#ifndef EXECUTORLSP_INLAYHINTS_H
#define EXECUTORLSP_INLAYHINTS_H

#include "ExecutorLsp/Forward.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace executor_studio {
namespace lsp {

struct LaunchHint {
  /// Where it shows: right after the launch (0-based line, byte column).
  unsigned line = 0, column = 0;
  /// `-> dispatch ADDR:PORT, ships {workspace}/m/m.o` or `-> local, ...`.
  std::string label;
  /// More on it (the pass that does it).
  std::string tooltip;
};

/// After each catalyst.launch_kernel on lines [firstLine, lastLine] whose
/// callee resolves to a target module: where it will run and the object its
/// target is shipped in (or linked from). None past the full-service size.
void getLaunchHints(const TextFile &file, unsigned firstLine, unsigned lastLine,
                    std::vector<LaunchHint> &hints);

/// As LSP's InlayHint (padded on the left).
llvm::json::Value toJSON(const LaunchHint &hint);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_INLAYHINTS_H
