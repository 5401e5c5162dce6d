//===- Rename.h - textDocument/rename and prepareRename ---------*- C++ -*-===//
#ifndef EXECUTORLSP_RENAME_H
#define EXECUTORLSP_RENAME_H

#include "ExecutorLsp/Forward.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace executor_studio {
namespace lsp {

struct RenameTarget {
  /// The name under the cursor, its sigil included (`%x`, `^bb1`, `@f`).
  std::string name;
  /// Where it is.
  unsigned line = 0, startColumn = 0, endColumn = 0;
};

/// What a rename at `pos` would rename: an SSA value, a block label or a
/// symbol (a func.func, a nested module, either part of `@module::@entry`).
/// None elsewhere, in a chunk that does not parse, or past the full-service
/// size.
std::optional<RenameTarget> prepareRename(const TextFile &file,
                                          const llvm::lsp::Position &pos);
/// As the answer to `textDocument/prepareRename`: its range and placeholder.
llvm::json::Value toJSON(const RenameTarget &target);

/// The edits that rename the name at `pos` to `newName` (its sigil
/// optional) at its definition and every use in its chunk. Fails with a
/// message when there is nothing to rename, when `newName` is no valid
/// name, or when it would collide with a name in the same scope (SSA
/// values: the nearest region isolated from above; blocks: the region;
/// symbols: the symbol table).
llvm::Expected<std::vector<llvm::lsp::TextEdit>>
rename(const TextFile &file, const llvm::lsp::Position &pos,
       llvm::StringRef newName);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_RENAME_H
