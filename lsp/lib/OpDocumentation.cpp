//===- OpDocumentation.cpp - ODS docs of the registered ops -----*- C++ -*-===//
#include "ExecutorLsp/OpDocumentation.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <mutex>

using namespace executor_studio::lsp;
using llvm::StringRef;

namespace {
struct DocPiece {
  const char *file;
  const char *text;
};

/// mlir-tblgen's markdown, in pieces (see lsp/EmbedDocs.cmake).
constexpr DocPiece kDocPieces[] = {
#define EXECUTOR_LSP_DOC_PIECE(FILE, TEXT) {FILE, TEXT},
#include "OpDocs.inc"
#undef EXECUTOR_LSP_DOC_PIECE
};

struct DocTables {
  llvm::StringMap<OpDocumentation> ops;
  llvm::StringMap<std::string> lowerings;
};

/// Splits `text` into lines without their line ends.
llvm::SmallVector<StringRef> splitLines(StringRef text) {
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef &line : lines)
    line = line.rtrim('\r');
  return lines;
}

/// Parses the `-gen-op-doc` sections `### \`name\` (Class)`.
void parseOpDoc(StringRef text, llvm::StringMap<OpDocumentation> &ops) {
  llvm::SmallVector<StringRef> lines = splitLines(text);
  for (size_t i = 0, e = lines.size(); i < e; ++i) {
    StringRef header = lines[i];
    if (!header.consume_front("### `"))
      continue;
    OpDocumentation doc;
    doc.name = header.take_until([](char c) { return c == '`'; }).str();
    size_t j = i + 1;
    // Summary: `_text_`.
    while (j < e && lines[j].trim().empty())
      ++j;
    if (j < e && lines[j].starts_with("_") && lines[j].ends_with("_") &&
        lines[j].size() > 1) {
      doc.summary = lines[j].drop_front().drop_back().str();
      ++j;
    }
    while (j < e && lines[j].trim().empty())
      ++j;
    // Syntax block.
    if (j < e && lines[j] == "Syntax:") {
      ++j;
      while (j < e && lines[j].trim().empty())
        ++j;
      if (j < e && lines[j].starts_with("```")) {
        ++j;
        std::string syntax;
        for (; j < e && !lines[j].starts_with("```"); ++j) {
          StringRef line = lines[j];
          line.consume_front("operation ::= ");
          if (!syntax.empty())
            syntax += "\n";
          syntax += line.trim().str();
        }
        doc.syntax = std::move(syntax);
        ++j;
      }
    }
    // Description: up to the traits, interfaces or the operand tables.
    std::string description;
    bool inCode = false;
    for (; j < e; ++j) {
      StringRef line = lines[j];
      if (line.starts_with("```"))
        inCode = !inCode;
      if (!inCode &&
          (line.starts_with("#### ") || line.starts_with("### ") ||
           line.starts_with("Traits: ") || line.starts_with("Interfaces: ") ||
           line.starts_with("Effects: ")))
        break;
      description += line.str();
      description += "\n";
    }
    doc.description = StringRef(description).trim().str();
    i = j - 1;
    std::string name = doc.name;
    ops.insert({name, std::move(doc)});
  }
}

/// Parses the bullets "- `executor.x` ... -> ..." of the runtime lowering
/// pass's `-gen-pass-doc` section.
void parseLowerings(StringRef text, llvm::StringMap<std::string> &lowerings) {
  llvm::SmallVector<StringRef> lines = splitLines(text);
  std::string header = "### `-" + kRuntimeLoweringPass.str() + "`";
  size_t i = 0, e = lines.size();
  while (i < e && lines[i] != header)
    ++i;
  for (++i; i < e && !lines[i].starts_with("### "); ++i) {
    StringRef line = lines[i];
    if (!line.consume_front("- `executor."))
      continue;
    StringRef name = line.take_until([](char c) { return c == '`'; });
    std::string body = line.drop_front(name.size() + 1).trim().str();
    // Continuation lines are indented.
    while (i + 1 < e && lines[i + 1].starts_with("  ")) {
      body += " ";
      body += lines[++i].trim().str();
    }
    StringRef text(body);
    text.consume_front("->");
    lowerings["executor." + name.str()] = text.trim().str();
  }
}

const DocTables &getTables() {
  static DocTables tables;
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::StringMap<std::string> files;
    llvm::SmallVector<StringRef> order;
    for (const DocPiece &piece : kDocPieces) {
      auto [it, inserted] = files.try_emplace(piece.file);
      if (inserted)
        order.push_back(it->getKey());
      it->second += piece.text;
    }
    for (StringRef file : order) {
      const std::string &text = files[file];
      if (file.ends_with("Passes.md"))
        parseLowerings(text, tables.lowerings);
      else
        parseOpDoc(text, tables.ops);
    }
  });
  return tables;
}
} // namespace

const OpDocumentation *
executor_studio::lsp::lookupOpDocumentation(StringRef opName) {
  const DocTables &tables = getTables();
  auto it = tables.ops.find(opName);
  return it == tables.ops.end() ? nullptr : &it->second;
}

const std::string *
executor_studio::lsp::lookupRuntimeLowering(StringRef opName) {
  const DocTables &tables = getTables();
  auto it = tables.lowerings.find(opName);
  return it == tables.lowerings.end() ? nullptr : &it->second;
}
