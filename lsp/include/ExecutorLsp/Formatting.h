//===- Formatting.h - textDocument/formatting -------------------*- C++ -*-===//
#ifndef EXECUTORLSP_FORMATTING_H
#define EXECUTORLSP_FORMATTING_H

#include "ExecutorLsp/Forward.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace executor_studio {
namespace lsp {

struct FormatOptions {
  /// MLIR's printer keeps no comments. Without this, a document with
  /// comments that would be lost is not formatted (an error says why);
  /// with it, they are dropped. Comments before the first op of a chunk
  /// (a test's RUN lines, a file header) are always kept.
  bool dropComments = false;
};

/// The edits that make `file` what MLIR's printer prints for it, chunk by
/// chunk (`// -----` markers kept): the custom form of every op, SSA names
/// and block-argument names as written (a group's first name), blocks
/// numbered `^bb0`... No edits when it is already so. Fails, naming the
/// reason and the place, when a chunk has errors, when comments would be
/// lost (see FormatOptions), or past the full-service size. Runs on the
/// parser's stack (DocumentLimits.h).
llvm::Expected<std::vector<llvm::lsp::TextEdit>>
formatDocument(const TextFile &file, const FormatOptions &options);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_FORMATTING_H
