//===- Aliases.cpp - attribute, type and location aliases -------*- C++ -*-===//
#include "ExecutorLsp/Aliases.h"

#include "ExecutorLsp/ParsedChunk.h"

#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace executor_studio::lsp;

namespace {
/// The alias whose definition or use holds `loc`, with the range hovered.
struct AliasAt {
  const AsmParserState::SMDefinition *definition = nullptr;
  SMRange range;
  StringRef name;
  /// `#`: an attribute (or location), `!`: a type.
  char sigil = '#';
  Attribute attr;
  Type type;
};

std::optional<AliasAt> findAlias(const ParsedChunk &chunk,
                                 const proto::Position &pos) {
  SMLoc loc = chunk.getLoc(pos);
  if (!loc.isValid())
    return std::nullopt;
  AliasAt alias;
  for (const auto &def : chunk.asmState.getAttributeAliasDefs()) {
    if (ParsedChunk::isDefOrUse(def.definition, loc, &alias.range)) {
      alias.definition = &def.definition;
      alias.name = def.name;
      alias.attr = def.value;
      return alias;
    }
  }
  for (const auto &def : chunk.asmState.getTypeAliasDefs()) {
    if (ParsedChunk::isDefOrUse(def.definition, loc, &alias.range)) {
      alias.definition = &def.definition;
      alias.name = def.name;
      alias.sigil = '!';
      alias.type = def.value;
      return alias;
    }
  }
  return std::nullopt;
}
} // namespace

bool executor_studio::lsp::findAliasDefinition(
    const ParsedChunk &chunk, const proto::URIForFile &uri,
    const proto::Position &pos, std::vector<proto::Location> &locations) {
  std::optional<AliasAt> alias = findAlias(chunk, pos);
  if (!alias)
    return false;
  locations.push_back(chunk.getLocation(uri, alias->definition->loc));
  return true;
}

bool executor_studio::lsp::findAliasReferences(
    const ParsedChunk &chunk, const proto::URIForFile &uri,
    const proto::Position &pos, bool includeDeclaration,
    std::vector<proto::Location> &references) {
  std::optional<AliasAt> alias = findAlias(chunk, pos);
  if (!alias)
    return false;
  if (includeDeclaration)
    references.push_back(chunk.getLocation(uri, alias->definition->loc));
  for (const SMRange &use : alias->definition->uses)
    references.push_back(chunk.getLocation(uri, use));
  return true;
}

std::optional<proto::Hover>
executor_studio::lsp::findAliasHover(const ParsedChunk &chunk,
                                     const proto::Position &pos) {
  std::optional<AliasAt> alias = findAlias(chunk, pos);
  if (!alias)
    return std::nullopt;
  proto::Hover hover(chunk.getRange(alias->range));
  llvm::raw_string_ostream os(hover.contents.value);
  StringRef kind = alias->type                         ? "Type"
                   : isa_and_nonnull<LocationAttr>(alias->attr) ? "Location"
                                                                : "Attribute";
  os << "**" << kind << " alias** `" << alias->sigil << alias->name << "`";
  size_t uses = alias->definition->uses.size();
  os << " (" << uses << (uses == 1 ? " use" : " uses") << ")\n\n```mlir\n"
     << alias->sigil << alias->name << " = ";
  if (alias->type)
    os << alias->type;
  else if (alias->attr)
    os << alias->attr;
  os << "\n```\n";
  return hover;
}
