//===- Aliases.h - attribute, type and location aliases ---------*- C++ -*-===//
//
// Definition, references and hover of the aliases of a chunk (`#attr = ...`,
// `!type = ...`, `#loc = loc(...)`), from the alias definitions and uses that
// mlir::AsmParserState records, as mlir-lsp-server answers them.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_ALIASES_H
#define EXECUTORLSP_ALIASES_H

#include "ExecutorLsp/Forward.h"

#include <optional>
#include <vector>

namespace executor_studio {
namespace lsp {

/// When `pos` is on an alias (its definition or a use): appends where it is
/// defined and returns true.
bool findAliasDefinition(const ParsedChunk &chunk, const proto::URIForFile &uri,
                         const proto::Position &pos,
                         std::vector<proto::Location> &locations);

/// When `pos` is on an alias: appends its definition (with
/// `includeDeclaration`) and every use, and returns true.
bool findAliasReferences(const ParsedChunk &chunk, const proto::URIForFile &uri,
                         const proto::Position &pos, bool includeDeclaration,
                         std::vector<proto::Location> &references);

/// The alias at `pos` and its value (`Attribute Alias: ...`).
std::optional<proto::Hover> findAliasHover(const ParsedChunk &chunk,
                                           const proto::Position &pos);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_ALIASES_H
