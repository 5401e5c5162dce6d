//===- DocumentSymbols.cpp - textDocument/documentSymbol --------*- C++ -*-===//
#include "ExecutorLsp/DocumentSymbols.h"

using namespace executor_studio::lsp;
namespace proto = llvm::lsp;
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
} // namespace

json::Array executor_studio::lsp::flattenDocumentSymbols(
    const std::vector<proto::DocumentSymbol> &symbols,
    const proto::URIForFile &uri) {
  json::Array out;
  flatten(symbols, uri, "", out);
  return out;
}
