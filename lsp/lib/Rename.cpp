//===- Rename.cpp - textDocument/rename and prepareRename -------*- C++ -*-===//
#include "ExecutorLsp/Rename.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorStudio/Support/MlirLexer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Protocol.h"

using namespace mlir;
using namespace executor_studio;
using namespace executor_studio::lsp;
using llvm::StringRef;

namespace {
/// What the cursor is on.
struct Target {
  enum class Kind { Value, Block, Symbol } kind;
  /// The range under the cursor.
  SMRange range;
  /// The definition and the uses, for values and blocks.
  const AsmParserState::SMDefinition *definition = nullptr;
  /// The scope of a value: the op whose results or block argument it is.
  Operation *valueOwner = nullptr;
  Block *argumentBlock = nullptr;
  /// The block of a label.
  Block *block = nullptr;
  /// The symbol op and its definition.
  const AsmParserState::OperationDefinition *symbol = nullptr;
};

std::optional<Target> findTarget(const ParsedChunk &chunk, SMLoc loc) {
  SMRange range;
  for (const AsmParserState::OperationDefinition &op :
       chunk.asmState.getOpDefs()) {
    for (const SMRange &use : op.symbolUses)
      if (rangeContains(use, loc)) {
        Target target{Target::Kind::Symbol, use};
        target.symbol = &op;
        return target;
      }
    for (const auto &group : op.resultGroups)
      if (ParsedChunk::isDefOrUse(group.definition, loc, &range)) {
        Target target{Target::Kind::Value, range, &group.definition};
        target.valueOwner = op.op;
        return target;
      }
  }
  for (const AsmParserState::BlockDefinition &block :
       chunk.asmState.getBlockDefs()) {
    // An entry block without a label is recorded at its region's `{`.
    if (ParsedChunk::getText(block.definition.loc).starts_with("^") &&
        ParsedChunk::isDefOrUse(block.definition, loc, &range)) {
      Target target{Target::Kind::Block, range, &block.definition};
      target.block = block.block;
      return target;
    }
    for (const AsmParserState::SMDefinition &arg : block.arguments) {
      if (ParsedChunk::isDefOrUse(arg, loc, &range)) {
        Target target{Target::Kind::Value, range, &arg};
        target.argumentBlock = block.block;
        return target;
      }
    }
  }
  return std::nullopt;
}

/// The name part of a value or block reference: `%x` of `%x#1` or `%x:2`.
StringRef getNameText(SMRange range) {
  StringRef text = ParsedChunk::getText(range);
  return text.take_front(text.find_first_of("#:"));
}

/// MLIR's suffix-id: digits, or a letter or one of `$._-` followed by
/// letters, digits and those.
bool isSuffixId(StringRef name) {
  if (name.empty())
    return false;
  if (llvm::isDigit(name.front()))
    return llvm::all_of(name, llvm::isDigit);
  return llvm::all_of(name, isIdentifierChar);
}

bool isBareSymbolName(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name.front()) || name.front() == '_'))
    return false;
  return llvm::all_of(name, isIdentifierChar);
}

/// The op whose region tree SSA names of `target` share: the nearest op
/// isolated from above (null: the chunk's top level).
Operation *getValueScope(const Target &target) {
  Operation *op = target.valueOwner;
  if (target.argumentBlock) {
    Operation *parent = target.argumentBlock->getParentOp();
    if (parent && parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return parent;
    op = parent;
  }
  return op ? op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>() : nullptr;
}

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::make_error<proto::LSPError>(message.str(),
                                           proto::ErrorCode::RequestFailed);
}

std::string describe(const ParsedChunk &chunk, SMRange range) {
  return llvm::formatv("line {0}", chunk.getPosition(range.Start).line + 1);
}

void addEdit(const ParsedChunk &chunk, SMRange range, size_t length,
             StringRef text, std::vector<proto::TextEdit> &edits) {
  SMRange part(range.Start,
               SMLoc::getFromPointer(range.Start.getPointer() + length));
  edits.push_back({chunk.getRange(part), text.str()});
}
} // namespace

std::optional<RenameTarget>
executor_studio::lsp::prepareRename(const TextFile &file,
                                    const proto::Position &pos) {
  if (!file.hasFullService())
    return std::nullopt;
  const ParsedChunk &chunk = file.getChunkFor(pos);
  SMLoc loc = chunk.getLoc(pos);
  if (!loc.isValid() || !chunk.hasParserState())
    return std::nullopt;
  std::optional<Target> target = findTarget(chunk, loc);
  if (!target)
    return std::nullopt;
  SMRange range = target->range;
  if (target->kind != Target::Kind::Symbol) {
    StringRef name = getNameText(range);
    range.End = SMLoc::getFromPointer(name.end());
  }
  RenameTarget result;
  result.name = ParsedChunk::getText(range).str();
  proto::Range lspRange = chunk.getRange(range);
  result.line = lspRange.start.line;
  result.startColumn = lspRange.start.character;
  result.endColumn = lspRange.end.character;
  return result;
}

llvm::Expected<std::vector<proto::TextEdit>>
executor_studio::lsp::rename(const TextFile &file, const proto::Position &pos,
                             StringRef newName) {
  if (!file.hasFullService())
    return makeError("the document is past the size for rename "
                     "(lsp/README.md, \"Limits\")");
  const ParsedChunk &chunk = file.getChunkFor(pos);
  SMLoc loc = chunk.getLoc(pos);
  if (!loc.isValid())
    return makeError("the position is outside the document");
  if (!chunk.hasParserState())
    return makeError("this part of the document does not parse; fix its "
                     "errors before renaming");
  std::optional<Target> target = findTarget(chunk, loc);
  if (!target)
    return makeError("there is no SSA value, block or symbol here to rename");

  std::vector<proto::TextEdit> edits;
  newName = newName.trim();
  switch (target->kind) {
  case Target::Kind::Value: {
    StringRef bare = newName;
    bare.consume_front("%");
    if (!isSuffixId(bare))
      return makeError("'" + newName +
                       "' is no SSA name: use %name (letters, digits, $ . _ "
                       "-, not starting with a digit) or %123");
    std::string name = ("%" + bare).str();
    StringRef old = getNameText(target->definition->loc);
    if (name == old)
      return edits;
    // Values whose names share the scope of the renamed one.
    Operation *scope = getValueScope(*target);
    auto collides = [&](const AsmParserState::SMDefinition &def) {
      return &def != target->definition && getNameText(def.loc) == name;
    };
    for (const AsmParserState::OperationDefinition &op :
         chunk.asmState.getOpDefs()) {
      if (op.resultGroups.empty())
        continue;
      Target other{Target::Kind::Value, SMRange()};
      other.valueOwner = op.op;
      if (getValueScope(other) != scope)
        continue;
      for (const auto &group : op.resultGroups)
        if (collides(group.definition))
          return makeError(llvm::formatv(
              "{0} is already defined in this scope ({1}); pick another "
              "name",
              name, describe(chunk, group.definition.loc)));
    }
    for (const AsmParserState::BlockDefinition &block :
         chunk.asmState.getBlockDefs()) {
      Target other{Target::Kind::Value, SMRange()};
      other.argumentBlock = block.block;
      if (getValueScope(other) != scope)
        continue;
      for (const AsmParserState::SMDefinition &arg : block.arguments)
        if (collides(arg))
          return makeError(llvm::formatv(
              "{0} is already defined in this scope ({1}); pick another "
              "name",
              name, describe(chunk, arg.loc)));
    }
    addEdit(chunk, target->definition->loc, old.size(), name, edits);
    for (const SMRange &use : target->definition->uses)
      addEdit(chunk, use, old.size(), name, edits);
    break;
  }
  case Target::Kind::Block: {
    StringRef bare = newName;
    bare.consume_front("^");
    if (!isSuffixId(bare))
      return makeError("'" + newName +
                       "' is no block label: use ^name (letters, digits, $ "
                       ". _ -)");
    std::string name = ("^" + bare).str();
    StringRef old = getNameText(target->definition->loc);
    if (name == old)
      return edits;
    for (const AsmParserState::BlockDefinition &block :
         chunk.asmState.getBlockDefs())
      if (block.block != target->block &&
          block.block->getParent() == target->block->getParent() &&
          getNameText(block.definition.loc) == name)
        return makeError(llvm::formatv(
            "{0} is already a block of this region ({1}); pick another name",
            name, describe(chunk, block.definition.loc)));
    addEdit(chunk, target->definition->loc, old.size(), name, edits);
    for (const SMRange &use : target->definition->uses)
      addEdit(chunk, use, old.size(), name, edits);
    break;
  }
  case Target::Kind::Symbol: {
    StringRef bare = newName;
    if (bare.consume_front("@") && bare.starts_with("\"") &&
        bare.ends_with("\"") && bare.size() >= 2)
      bare = bare.drop_front().drop_back();
    if (bare.empty() || bare.contains('"') || bare.contains('\\') ||
        bare.contains('\n'))
      return makeError("'" + newName + "' is no symbol name");
    std::string name = isBareSymbolName(bare) ? ("@" + bare).str()
                                              : ("@\"" + bare + "\"").str();
    Operation *op = target->symbol->op;
    auto oldName =
        op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!oldName)
      return makeError("this symbol has no name to rename");
    if (oldName.getValue() == bare)
      return edits;
    // The symbol table that holds it (the chunk's top level when none).
    auto clash = [&](Operation *other) -> llvm::Error {
      return makeError(llvm::formatv(
          "@{0} already names a '{1}' in the same symbol table ({2}); pick "
          "another name",
          bare, other->getName().getStringRef(),
          chunk.asmState.getOpDef(other)
              ? describe(chunk, chunk.asmState.getOpDef(other)->loc)
              : std::string("generated")));
    };
    if (Operation *table = op->getParentOp()) {
      if (Operation *other = SymbolTable::lookupSymbolIn(
              SymbolTable::getNearestSymbolTable(table), bare);
          other && other != op)
        return clash(other);
    } else {
      for (Operation &other : chunk.parsedIR) {
        auto otherName =
            other.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        if (&other != op && otherName && otherName.getValue() == bare)
          return clash(&other);
      }
    }
    for (const SMRange &use : target->symbol->symbolUses)
      edits.push_back({chunk.getRange(use), name});
    break;
  }
  }
  // One edit per place (a definition may also be recorded as a use).
  llvm::sort(edits, [](const proto::TextEdit &a, const proto::TextEdit &b) {
    return a.range.start < b.range.start;
  });
  edits.erase(
      std::unique(edits.begin(), edits.end(),
                  [](const proto::TextEdit &a, const proto::TextEdit &b) {
                    return a.range.start == b.range.start;
                  }),
      edits.end());
  return edits;
}

llvm::json::Value executor_studio::lsp::toJSON(const RenameTarget &target) {
  proto::Range range(proto::Position(target.line, target.startColumn),
                     proto::Position(target.line, target.endColumn));
  return llvm::json::Object{{"range", range}, {"placeholder", target.name}};
}
