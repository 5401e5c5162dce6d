//===- XRefs.h - textDocument/definition and references ---------*- C++ -*-===//
//
// Definitions and references of what is under the cursor: SSA values, block
// labels and arguments, symbols (AsmParserState), aliases (Aliases.h) and
// the source locations an op carries (SourceLocations.h).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_XREFS_H
#define EXECUTORLSP_XREFS_H

#include "ExecutorLsp/Forward.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace executor_studio {
namespace lsp {

/// Where what is at `pos` is defined; for an op, also the source locations
/// it carries (relative file names resolved against `workspaceRoot`).
void findDefinitions(const TextFile &file, const llvm::lsp::Position &pos,
                     llvm::StringRef workspaceRoot,
                     std::vector<llvm::lsp::Location> &locations);

/// Where what is at `pos` is used (and defined, with `includeDeclaration`).
void findReferences(const TextFile &file, const llvm::lsp::Position &pos,
                    bool includeDeclaration,
                    std::vector<llvm::lsp::Location> &references);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_XREFS_H
