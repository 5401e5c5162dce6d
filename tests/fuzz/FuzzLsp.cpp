//===- FuzzLsp.cpp - the language server's input --------------------------===//
//
// executor-lsp-server's whole message loop (runServer: CheckedInput, the
// JSON-RPC transport, dispatch, every handler) on input from a client:
//
// - FUZZ_LSP_FRAMING: the input is the byte stream itself (Content-Length
//   headers, JSON bodies, whatever a client or a broken pipe sends).
// - otherwise: the input is a document; the harness opens it and sends the
//   requests an editor sends about it (hover, definition, references,
//   symbols, completion, code lenses and actions, rename, semantic tokens,
//   folding, formatting, inlay hints, bytecode), at places spread over it.
//
// The pipeline runs (diagnostics after a pause, the preview) are in a worker
// process and are left out; the rest runs as the server runs it.
//
//===----------------------------------------------------------------------===//
#include "ExecutorLsp/Server.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <string>

using namespace executor_studio::lsp;
namespace json = llvm::json;

namespace {
ServerOptions serverOptions() {
  ServerOptions options;
  options.pipelineDiagnostics = false;
  options.verifyThreads = 1;
  return options;
}

void serve(const std::string &stream) {
  std::FILE *in = ::fmemopen(const_cast<char *>(stream.data()),
                             stream.size() ? stream.size() : 1, "r");
  if (!in)
    return;
  if (stream.empty())
    std::fgetc(in); // at its end
  llvm::raw_null_ostream out;
  runServer(in, out, TransportOptions{}, serverOptions());
  std::fclose(in);
}

#ifndef FUZZ_LSP_FRAMING
std::string frame(json::Value message) {
  std::string body;
  llvm::raw_string_ostream os(body);
  os << message;
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

int nextId = 1;
std::string request(llvm::StringRef method, json::Object params) {
  return frame(json::Object{{"jsonrpc", "2.0"},
                            {"id", nextId++},
                            {"method", method},
                            {"params", std::move(params)}});
}
std::string notification(llvm::StringRef method, json::Object params) {
  return frame(json::Object{
      {"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}
#endif
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string input(reinterpret_cast<const char *>(data), size);
#ifdef FUZZ_LSP_FRAMING
  serve(input);
#else
  // JSON strings are UTF-8: the editor would have sent valid text.
  std::string text = json::fixUTF8(input);
  const char *uri = "file:///fuzz/input.mlir";
  json::Object doc{{"uri", uri}};
  std::string stream =
      request("initialize", json::Object{{"processId", nullptr},
                                         {"rootUri", nullptr},
                                         {"capabilities", json::Object{}}}) +
      notification("initialized", json::Object{}) +
      notification("textDocument/didOpen",
                   json::Object{{"textDocument", json::Object{{"uri", uri},
                                                              {"languageId", "mlir"},
                                                              {"version", 1},
                                                              {"text", text}}}});
  int lines = 1;
  for (char c : text)
    lines += c == '\n';
  json::Object whole{{"start", json::Object{{"line", 0}, {"character", 0}}},
                     {"end", json::Object{{"line", lines}, {"character", 0}}}};
  auto at = [&](int line, int character) {
    return json::Object{{"textDocument", json::Object{{"uri", uri}}},
                        {"position", json::Object{{"line", line},
                                                  {"character", character}}}};
  };
  for (int k = 0; k < 3; ++k) {
    int line = k * lines / 3, character = 3 + 5 * k;
    stream += request("textDocument/hover", at(line, character));
    stream += request("textDocument/definition", at(line, character));
    json::Object refs = at(line, character);
    refs["context"] = json::Object{{"includeDeclaration", true}};
    stream += request("textDocument/references", std::move(refs));
    stream += request("textDocument/completion", at(line, character));
    stream += request("textDocument/prepareRename", at(line, character));
    json::Object rename = at(line, character);
    rename["newName"] = "renamed";
    stream += request("textDocument/rename", std::move(rename));
  }
  auto withDoc = [&](json::Object params) {
    params["textDocument"] = json::Object{{"uri", uri}};
    return params;
  };
  stream += request("textDocument/documentSymbol", withDoc(json::Object{}));
  stream += request("textDocument/codeLens", withDoc(json::Object{}));
  stream += request("textDocument/semanticTokens/full", withDoc(json::Object{}));
  stream += request("textDocument/semanticTokens/range",
                    withDoc(json::Object{{"range", json::Object(whole)}}));
  stream += request("textDocument/foldingRange", withDoc(json::Object{}));
  stream += request(
      "textDocument/formatting",
      withDoc(json::Object{{"options", json::Object{{"tabSize", 2}, {"insertSpaces", true}}}}));
  stream += request("textDocument/inlayHint",
                    withDoc(json::Object{{"range", json::Object(whole)}}));
  stream += request("textDocument/codeAction",
                    withDoc(json::Object{{"range", json::Object(whole)},
                                         {"context", json::Object{{"diagnostics",
                                                       json::Array{}}}}}));
  stream += request("mlir/convertToBytecode", json::Object{{"uri", uri}});
  stream += request("shutdown", json::Object{});
  stream += notification("exit", json::Object{});
  serve(stream);
#endif
  return 0;
}
