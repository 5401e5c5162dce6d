//===- XRefs.cpp - textDocument/definition and references -------*- C++ -*-===//
#include "ExecutorLsp/XRefs.h"

#include "ExecutorLsp/Aliases.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/SourceLocations.h"
#include "ExecutorLsp/SourceRanges.h"
#include "ExecutorLsp/TextFile.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace executor_studio::lsp;

namespace {
void getLocationsOf(const ParsedChunk &chunk, const proto::URIForFile &uri,
                    SMLoc loc, std::vector<proto::Location> &locations) {
  auto addDef = [&](const AsmParserState::SMDefinition &def) {
    if (!ParsedChunk::isDefOrUse(def, loc))
      return false;
    locations.push_back(chunk.getLocation(uri, def.loc));
    return true;
  };
  for (const AsmParserState::OperationDefinition &op :
       chunk.asmState.getOpDefs()) {
    if (rangeContains(op.loc, loc)) {
      locations.push_back(chunk.getLocation(uri, op.loc));
      return;
    }
    for (const auto &result : op.resultGroups)
      if (addDef(result.definition))
        return;
    for (const SMRange &use : op.symbolUses) {
      if (rangeContains(use, loc)) {
        locations.push_back(chunk.getLocation(uri, op.loc));
        return;
      }
    }
  }
  for (const AsmParserState::BlockDefinition &block :
       chunk.asmState.getBlockDefs()) {
    if (addDef(block.definition))
      return;
    for (const AsmParserState::SMDefinition &arg : block.arguments)
      if (addDef(arg))
        return;
  }
}

void findReferencesOf(const ParsedChunk &chunk, const proto::URIForFile &uri,
                      SMLoc loc, bool includeDeclaration,
                      std::vector<proto::Location> &references) {
  auto addDefAndUses = [&](const AsmParserState::SMDefinition &def) {
    if (includeDeclaration)
      references.push_back(chunk.getLocation(uri, def.loc));
    for (const SMRange &use : def.uses)
      references.push_back(chunk.getLocation(uri, use));
  };
  auto addSymbol = [&](const AsmParserState::OperationDefinition &op) {
    // The symbol's own name in its definition is recorded as a use: it is
    // the declaration.
    auto isDeclaration = [&](SMRange use) {
      auto name =
          op.op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      return name &&
             ParsedChunk::getText(use) == ("@" + name.getValue()).str() &&
             chunk.getPosition(use.Start).line ==
                 chunk.getPosition(op.loc.Start).line;
    };
    bool declared = false;
    for (const SMRange &use : op.symbolUses) {
      bool declaration = isDeclaration(use);
      declared |= declaration;
      if (!declaration || includeDeclaration)
        references.push_back(chunk.getLocation(uri, use));
    }
    if (includeDeclaration && !declared)
      references.insert(references.begin(), chunk.getLocation(uri, op.loc));
  };
  for (const AsmParserState::OperationDefinition &op :
       chunk.asmState.getOpDefs()) {
    if (rangeContains(op.loc, loc)) {
      if (!op.symbolUses.empty() || isa<SymbolOpInterface>(op.op))
        return addSymbol(op);
      for (const auto &result : op.resultGroups)
        addDefAndUses(result.definition);
      return;
    }
    for (const auto &result : op.resultGroups)
      if (ParsedChunk::isDefOrUse(result.definition, loc))
        return addDefAndUses(result.definition);
    for (const SMRange &use : op.symbolUses)
      if (rangeContains(use, loc))
        return addSymbol(op);
  }
  for (const AsmParserState::BlockDefinition &block :
       chunk.asmState.getBlockDefs()) {
    if (ParsedChunk::isDefOrUse(block.definition, loc))
      return addDefAndUses(block.definition);
    for (const AsmParserState::SMDefinition &arg : block.arguments)
      if (ParsedChunk::isDefOrUse(arg, loc))
        return addDefAndUses(arg);
  }
}
} // namespace

void executor_studio::lsp::findDefinitions(
    const TextFile &file, const proto::Position &pos,
    llvm::StringRef workspaceRoot, std::vector<proto::Location> &locations) {
  const ParsedChunk &chunk = file.getChunkFor(pos);
  if (findAliasDefinition(chunk, file.getURI(), pos, locations))
    return;
  SMLoc loc = chunk.getLoc(pos);
  if (loc.isValid())
    getLocationsOf(chunk, file.getURI(), loc, locations);
  findSourceLocations(chunk, file.getURI(), pos, workspaceRoot, locations);
}

void executor_studio::lsp::findReferences(
    const TextFile &file, const proto::Position &pos, bool includeDeclaration,
    std::vector<proto::Location> &references) {
  const ParsedChunk &chunk = file.getChunkFor(pos);
  if (findAliasReferences(chunk, file.getURI(), pos, includeDeclaration,
                          references))
    return;
  SMLoc loc = chunk.getLoc(pos);
  if (loc.isValid())
    findReferencesOf(chunk, file.getURI(), loc, includeDeclaration, references);
}
