//===- SemanticTokens.cpp - textDocument/semanticTokens ---------*- C++ -*-===//
#include "ExecutorLsp/SemanticTokens.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/TextFile.h"
#include "ExecutorStudio/Support/MlirLexer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace executor_studio;
using namespace executor_studio::lsp;

namespace {
enum TokenType : uint32_t {
  TokNamespace,
  TokType,
  TokFunction,
  TokVariable,
  TokParameter,
  TokProperty,
  TokDecorator,
  TokKeyword,
  TokString,
  TokNumber,
  TokComment,
  TokLabel,
};
enum TokenModifier : uint32_t { Declaration = 1 };

constexpr llvm::StringLiteral kTypes[] = {
    "namespace", "type",    "function", "variable", "parameter", "property",
    "decorator", "keyword", "string",   "number",   "comment",   "label"};
constexpr llvm::StringLiteral kModifiers[] = {"declaration"};

struct Classification {
  uint32_t type;
  uint32_t modifiers = 0;
};

/// Words that are builtin types.
bool isBuiltinTypeWord(llvm::StringRef word) {
  llvm::StringRef width = word;
  if ((width.consume_front("si") || width.consume_front("ui") ||
       width.consume_front("i")) &&
      !width.empty() && llvm::all_of(width, llvm::isDigit))
    return true;
  static constexpr llvm::StringLiteral kWords[] = {
      "f16",   "f32",  "f64",    "f80",    "f128",   "bf16",    "tf32",
      "index", "none", "memref", "tensor", "vector", "complex", "tuple"};
  return llvm::is_contained(kWords, word) || word.starts_with("f8E") ||
         word.starts_with("f4E") || word.starts_with("f6E");
}

/// Words that start builtin attributes.
bool isBuiltinAttributeWord(llvm::StringRef word) {
  static constexpr llvm::StringLiteral kWords[] = {
      "dense",      "dense_resource", "sparse",  "array",
      "affine_map", "affine_set",     "strided", "distinct",
      "true",       "false",          "unit"};
  return llvm::is_contained(kWords, word);
}

/// What the parser knows about the tokens of one chunk, by their start.
class ParserClassifier {
public:
  explicit ParserClassifier(const ParsedChunk &chunk) {
    if (!chunk.hasParserState())
      return;
    const AsmParserState &state = chunk.asmState;
    for (const AsmParserState::OperationDefinition &op : state.getOpDefs()) {
      add(op.loc, TokKeyword);
      for (const auto &group : op.resultGroups)
        addDefinition(group.definition, TokVariable);
      if (op.symbolUses.empty())
        continue;
      uint32_t type = TokVariable;
      if (isa<FunctionOpInterface>(op.op))
        type = TokFunction;
      else if (op.op->hasTrait<OpTrait::SymbolTable>())
        type = TokNamespace;
      auto name =
          op.op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      int64_t opLine = chunk.getPosition(op.loc.Start).line;
      for (const SMRange &use : op.symbolUses) {
        bool declaration =
            name && ParsedChunk::getText(use).drop_front() == name.getValue() &&
            chunk.getPosition(use.Start).line == opLine;
        add(use, type, declaration ? Declaration : 0);
      }
    }
    for (const AsmParserState::BlockDefinition &block : state.getBlockDefs()) {
      // An entry block without a label is recorded at its region's `{`.
      if (ParsedChunk::getText(block.definition.loc).starts_with("^"))
        addDefinition(block.definition, TokLabel);
      for (const AsmParserState::SMDefinition &arg : block.arguments)
        addDefinition(arg, TokParameter);
    }
    for (const auto &alias : state.getAttributeAliasDefs())
      addDefinition(alias.definition, TokDecorator);
    for (const auto &alias : state.getTypeAliasDefs())
      addDefinition(alias.definition, TokType);
    finish();
  }

  /// Sorts what the constructor found; lookups then go forward.
  void finish() {
    llvm::stable_sort(entries, [](const Entry &a, const Entry &b) {
      return a.start < b.start;
    });
  }
  /// The classification of the token at `start`; `start` must not decrease
  /// from one call to the next (the scanner's order).
  const Classification *lookup(const char *start) {
    while (next < entries.size() && entries[next].start < start)
      ++next;
    // The last entry recorded at a place wins.
    const Classification *found = nullptr;
    while (next < entries.size() && entries[next].start == start)
      found = &entries[next++].classification;
    return found;
  }
  bool empty() const { return entries.empty(); }

private:
  struct Entry {
    const char *start;
    Classification classification;
  };
  void add(SMRange range, uint32_t type, uint32_t modifiers = 0) {
    if (range.isValid())
      entries.push_back({range.Start.getPointer(), {type, modifiers}});
  }
  void addDefinition(const AsmParserState::SMDefinition &def, uint32_t type) {
    add(def.loc, type, Declaration);
    for (const SMRange &use : def.uses)
      add(use, type);
  }

  // (A DenseMap of the token pointers hashes nearby tokens alike: a sorted
  // vector read in order is several times faster.)
  std::vector<Entry> entries;
  size_t next = 0;
};

/// Whether the next non-blank character after `token` is `=` (an attribute
/// name in a dictionary), but not `==`.
bool isFollowedByEquals(llvm::StringRef buffer, llvm::StringRef token) {
  const char *p = token.end();
  while (p < buffer.end() && (*p == ' ' || *p == '\t'))
    ++p;
  return p < buffer.end() && *p == '=' &&
         (p + 1 == buffer.end() || p[1] != '=');
}
} // namespace

llvm::ArrayRef<llvm::StringLiteral>
executor_studio::lsp::getSemanticTokenTypes() {
  return kTypes;
}
llvm::ArrayRef<llvm::StringLiteral>
executor_studio::lsp::getSemanticTokenModifiers() {
  return kModifiers;
}

void executor_studio::lsp::getSemanticTokens(const TextFile &file,
                                             std::vector<uint32_t> &data,
                                             std::optional<LineSpan> span) {
  if (!file.hasFullService())
    return;
  unsigned prevLine = 0, prevColumn = 0;
  auto push = [&](unsigned line, unsigned column, unsigned length,
                  Classification c) {
    if (span && (line < span->firstLine || line > span->lastLine))
      return;
    unsigned deltaLine = line - prevLine;
    data.push_back(deltaLine);
    data.push_back(deltaLine ? column : column - prevColumn);
    data.push_back(length);
    data.push_back(c.type);
    data.push_back(c.modifiers);
    prevLine = line;
    prevColumn = column;
  };
  for (const std::unique_ptr<ParsedChunk> &chunkPtr : file.getChunks()) {
    const ParsedChunk &chunk = *chunkPtr;
    if (span) {
      unsigned chunkLines = chunk.getBuffer().count('\n');
      if (chunk.lineOffset > span->lastLine ||
          chunk.lineOffset + chunkLines < span->firstLine)
        continue;
    }
    ParserClassifier parser(chunk);
    llvm::StringRef buffer = chunk.getBuffer();
    // Inside how many `{` of a dictionary (not of a region) the scanner is:
    // attribute names are the words before `=` there.
    scanTokens(buffer, [&](const ScannedToken &token) {
      using Kind = ScannedToken::Kind;
      unsigned line = chunk.lineOffset + token.line;
      unsigned length = token.text.size();
      if (const Classification *c = parser.lookup(token.text.data())) {
        push(line, token.column, length, *c);
        return;
      }
      switch (token.kind) {
      case Kind::Comment:
        return push(line, token.column, length, {TokComment});
      case Kind::String:
        return push(line, token.column, length, {TokString});
      case Kind::Number:
        return push(line, token.column, length, {TokNumber});
      case Kind::ValueId:
        return push(line, token.column, length, {TokVariable});
      case Kind::BlockId:
        return push(line, token.column, length, {TokLabel});
      case Kind::SymbolRef:
        return push(line, token.column, length, {TokFunction});
      case Kind::AttributeAlias:
        return push(line, token.column, length, {TokDecorator});
      case Kind::TypeAlias:
        return push(line, token.column, length, {TokType});
      case Kind::BareWord:
        if (isBuiltinTypeWord(token.text))
          return push(line, token.column, length, {TokType});
        if (isBuiltinAttributeWord(token.text))
          return push(line, token.column, length, {TokDecorator});
        if (isFollowedByEquals(buffer, token.text))
          return push(line, token.column, length, {TokProperty});
        // Where the parser could not tell (the chunk does not parse), a
        // dotted word is most likely an op.
        if (parser.empty() && token.text.contains('.') &&
            !token.text.ends_with("."))
          return push(line, token.column, length, {TokKeyword});
        return;
      default:
        return;
      }
    });
  }
}
