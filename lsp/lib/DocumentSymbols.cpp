//===- DocumentSymbols.cpp - textDocument/documentSymbol --------*- C++ -*-===//
#include "ExecutorLsp/DocumentSymbols.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace executor_studio::lsp;
namespace json = llvm::json;

namespace {
void flatten(const std::vector<proto::DocumentSymbol> &symbols,
             const proto::URIForFile &uri, llvm::StringRef container,
             json::Array &out) {
  for (const proto::DocumentSymbol &symbol : symbols) {
    json::Object info{
        {"name", symbol.name},
        {"kind", static_cast<int>(symbol.kind)},
        {"location", json::Object{{"uri", uri.uri().str()},
                                  {"range", toJSON(symbol.range)}}},
    };
    if (!container.empty())
      info["containerName"] = container;
    out.push_back(std::move(info));
    flatten(symbol.children, uri, symbol.name, out);
  }
}
void collectSymbols(const ParsedChunk &chunk, Operation *op,
                    std::vector<proto::DocumentSymbol> &symbols) {
  std::vector<proto::DocumentSymbol> *children = &symbols;
  if (const AsmParserState::OperationDefinition *def =
          chunk.asmState.getOpDef(op)) {
    auto symbolName =
        op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    proto::DocumentSymbol symbol;
    bool add = true;
    if (auto module = dyn_cast<ModuleOp>(op)) {
      symbol.name = symbolName ? ("@" + symbolName.getValue()).str()
                               : std::string("<module>");
      symbol.kind = proto::SymbolKind::Module;
      if (catalyst::isTarget(module)) {
        if (std::optional<std::string> address =
                catalyst::getDispatchAddress(module))
          symbol.detail = "catalyst.target, dispatched to " + *address;
        else
          symbol.detail = "catalyst.target, linked into the host";
      } else {
        symbol.detail = "builtin.module";
      }
    } else if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      symbol.name = ("@" + function.getName()).str();
      symbol.kind = proto::SymbolKind::Function;
      llvm::raw_string_ostream os(symbol.detail);
      os << function.getFunctionType();
    } else if (symbolName) {
      symbol.name = ("@" + symbolName.getValue()).str();
      symbol.kind = proto::SymbolKind::Variable;
      symbol.detail = op->getName().getStringRef().str();
    } else if (op->hasTrait<OpTrait::SymbolTable>()) {
      symbol.name = ("<" + op->getName().getStringRef() + ">").str();
      symbol.kind = proto::SymbolKind::Namespace;
    } else {
      add = false;
    }
    if (add) {
      symbol.range = chunk.getRange(def->scopeLoc);
      symbol.selectionRange = chunk.getRange(def->loc);
      symbols.push_back(std::move(symbol));
      children = &symbols.back().children;
    }
  }
  for (Region &region : op->getRegions())
    for (Operation &child : region.getOps())
      collectSymbols(chunk, &child, *children);
}
} // namespace

void executor_studio::lsp::findDocumentSymbols(
    const TextFile &file, std::vector<proto::DocumentSymbol> &symbols) {
  auto collect = [&](const ParsedChunk &chunk,
                     std::vector<proto::DocumentSymbol> &out) {
    for (Operation &op : chunk.parsedIR)
      collectSymbols(chunk, &op, out);
  };
  llvm::ArrayRef<std::unique_ptr<ParsedChunk>> chunks = file.getChunks();
  if (chunks.size() == 1)
    return collect(*chunks.front(), symbols);
  // One namespace per chunk of a split file, as mlir-lsp-server does.
  unsigned totalLines = llvm::StringRef(file.getContents()).count('\n');
  for (unsigned i = 0, e = chunks.size(); i < e; ++i) {
    const ParsedChunk &chunk = *chunks[i];
    proto::Position start(chunk.lineOffset);
    proto::Position end(i + 1 == e ? totalLines
                                   : chunks[i + 1]->lineOffset - 1);
    proto::DocumentSymbol symbol("<file-split-" + llvm::Twine(i) + ">",
                                 proto::SymbolKind::Namespace,
                                 proto::Range(start, end), proto::Range(start));
    collect(chunk, symbol.children);
    symbols.push_back(std::move(symbol));
  }
}

json::Array executor_studio::lsp::flattenDocumentSymbols(
    const std::vector<proto::DocumentSymbol> &symbols,
    const proto::URIForFile &uri) {
  json::Array out;
  flatten(symbols, uri, "", out);
  return out;
}
