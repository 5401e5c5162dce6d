//===- executor-lsp-fuzz.cpp - mutated documents and malformed messages ---===//
//
// Feeds executor-lsp-server seed documents mutated at random (truncated,
// spliced, with invalid UTF-8, split markers and executor snippets), requests
// at random positions, requests with wrong params, unknown documents,
// malformed JSON and JSON-RPC, malformed Content-Length framing,
// cancellations, edits during previews, a 100,000-line file, documents that
// nest 1,000 to 20,000 levels deep, documents past the size limits (and
// mutated), and a shutdown during a preview. After every request it
// checks that the answer comes (with the right error code where one is
// due) and at the end that the server exits cleanly. Deterministic for one
// --seed; prints what it did and "OK" or the first failure.
//
//===----------------------------------------------------------------------===//
#include "LspTestClient.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <random>

using namespace llvm;
using namespace executor_studio::lsp_test;

namespace {
cl::list<std::string> seedFiles(cl::Positional, cl::desc("<seed .mlir>..."),
                                cl::OneOrMore);
cl::opt<std::string> serverPath("server", cl::desc("executor-lsp-server"),
                                cl::Required);
cl::opt<unsigned> iterations("iterations", cl::desc("Mutated documents"),
                             cl::init(200));
cl::opt<unsigned> seed("seed", cl::desc("Random seed"), cl::init(1));
cl::opt<unsigned> bigLines("big-file-lines",
                           cl::desc("Lines of the big file (0: none)"),
                           cl::init(100000));
cl::opt<unsigned> largeMb("large-document-mb",
                          cl::desc("Size of the largest big document (0: "
                                   "none); smaller ones are sent too"),
                          cl::init(20));
cl::opt<unsigned> timeoutMs("timeout-ms",
                            cl::desc("How long one answer may take"),
                            cl::init(60000));

constexpr StringRef kUri = "file:///fuzz/doc.mlir";

/// Pieces the mutator inserts.
constexpr StringRef kSnippets[] = {
    "// -----\n",
    "catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> "
    "memref<4xf64>\n",
    "%s = executor.open(\"ADDR:PORT\") : !executor.session\n",
    "module @t attributes {catalyst.target = {}, catalyst.dispatch = {address "
    "= \"h:1\"}} {\n",
    "module @t attributes {catalyst.target = {}} {}\n",
    "}\n",
    "{",
    "%",
    "^bb1:\n",
    "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n",
    "\"",
    "\xff\xfe",
    "\xc3",
    "\xe2\x82",
    "\t",
    "#map = affine_map<(d0) -> (d0)>\n",
    "loc(\"other.mlir\":3:4)",
    "!executor.token",
    "{-#",
};

class Fuzzer {
public:
  Fuzzer(LspProcess &server) : server(server), rng(seed) {}

  bool run(ArrayRef<std::string> seeds);
  unsigned requests = 0;
  /// Pipeline runs whose worker crashed (the server survives them; the
  /// passes have a bug).
  unsigned workerCrashes = 0;
  std::map<int64_t, unsigned> errorCodes;

private:
  unsigned pick(unsigned n) {
    return n == 0 ? 0 : std::uniform_int_distribution<unsigned>(0, n - 1)(rng);
  }
  bool chance(unsigned percent) { return pick(100) < percent; }

  std::string mutate(std::string text);
  bool fail(const Twine &message) {
    errs() << "FAIL: " << message << "\n";
    return false;
  }

  /// Sends a request and checks that it is answered (with `expectedCode`
  /// when given).
  bool request(StringRef method, json::Value params,
               std::optional<int64_t> expectedCode = std::nullopt);
  /// Sends a body that is not a valid message; expects `code`.
  bool requestBody(StringRef body, std::optional<int64_t> code,
                   bool expectAnswer = true);
  bool openOrChange(StringRef text, bool open);
  json::Value randomPosition(StringRef text);
  bool randomQueries(StringRef text);
  bool malformedMessages();
  bool previews(StringRef text);
  bool bigFile();
  bool deepNesting();
  bool largeDocuments(ArrayRef<std::string> seeds);
  bool malformedFraming();
  /// Waits for the diagnostics of the current version; `text` must be in
  /// one of their messages when given.
  bool waitForDiagnostics(StringRef text);
  bool stillAnswers();

  LspProcess &server;
  std::mt19937 rng;
  int64_t nextId = 1;
  int64_t version = 1;
};

std::string Fuzzer::mutate(std::string text) {
  unsigned steps = 1 + pick(4);
  for (unsigned i = 0; i < steps; ++i) {
    size_t size = text.size();
    switch (pick(7)) {
    case 0: // truncate
      text.resize(pick(size + 1));
      break;
    case 1: { // delete a range
      size_t start = pick(size + 1);
      size_t length = pick(std::min<size_t>(size - start, 200) + 1);
      text.erase(start, length);
      break;
    }
    case 2: { // duplicate a range
      size_t start = pick(size + 1);
      size_t length = pick(std::min<size_t>(size - start, 400) + 1);
      text.insert(pick(size + 1), text.substr(start, length));
      break;
    }
    case 3: { // insert a snippet
      StringRef snippet = kSnippets[pick(std::size(kSnippets))];
      text.insert(pick(size + 1), snippet.str());
      break;
    }
    case 4: { // random bytes
      std::string bytes;
      for (unsigned j = 0, e = 1 + pick(8); j < e; ++j)
        bytes += static_cast<char>(pick(256));
      text.insert(pick(size + 1), bytes);
      break;
    }
    case 6: { // nest deep at one place
      if (!chance(10))
        break;
      StringRef opens[] = {"module {\n", "{",       "(",
                           "[",          "tensor<", "\"x\"() ({\n"};
      StringRef open = opens[pick(std::size(opens))];
      std::string nested;
      for (unsigned j = 0, e = 500 + pick(6000); j < e; ++j)
        nested += open;
      text.insert(pick(size + 1), nested);
      break;
    }
    default: { // flip a character
      if (size)
        text[pick(size)] = "{}()%@^:,<>\"#!= \n"[pick(17)];
      break;
    }
    }
  }
  return text;
}

bool Fuzzer::request(StringRef method, json::Value params,
                     std::optional<int64_t> expectedCode) {
  int64_t id = nextId++;
  ++requests;
  if (!server.send(makeRequest(id, method, std::move(params))))
    return fail(formatv("cannot send {0}: the server is gone", method));
  std::vector<json::Value> others;
  std::optional<json::Value> response =
      server.waitForResponse(id, std::chrono::milliseconds(timeoutMs), &others);
  for (const json::Value &other : others)
    if (StringRef(formatv("{0}", other).str())
            .contains("the pipeline worker failed"))
      ++workerCrashes;
  if (!response)
    return fail(formatv("no answer to {0} (id {1})", method, id));
  const json::Object *error = response->getAsObject()->getObject("error");
  std::optional<int64_t> code =
      error ? error->getInteger("code") : std::nullopt;
  if (code)
    ++errorCodes[*code];
  if (expectedCode && code != expectedCode)
    return fail(formatv("{0}: expected error {1}, got {2}", method,
                        *expectedCode, *response));
  if (!expectedCode && code && *code != -32801 && *code != -32800 &&
      *code != -32803)
    return fail(formatv("{0}: unexpected error {1}", method, *response));
  return true;
}

bool Fuzzer::requestBody(StringRef body, std::optional<int64_t> code,
                         bool expectAnswer) {
  ++requests;
  if (!server.sendBody(body))
    return fail("cannot send: the server is gone");
  if (!expectAnswer)
    return stillAnswers();
  std::optional<json::Value> response;
  while (true) {
    response = server.read(std::chrono::milliseconds(timeoutMs));
    if (!response)
      return fail(formatv("no answer to the malformed message {0}",
                          body.take_front(80)));
    if (!response->getAsObject()->get("method"))
      break; // notifications may come in between
  }
  const json::Object *error = response->getAsObject()->getObject("error");
  std::optional<int64_t> got = error ? error->getInteger("code") : std::nullopt;
  if (got)
    ++errorCodes[*got];
  if (code && got != code)
    return fail(formatv("expected error {0} for {1}, got {2}", *code,
                        body.take_front(80), *response));
  return true;
}

bool Fuzzer::stillAnswers() {
  return request("textDocument/documentSymbol",
                 json::Object{{"textDocument", json::Object{{"uri", kUri}}}});
}

bool Fuzzer::openOrChange(StringRef text, bool open) {
  // Built by hand: the text may hold invalid UTF-8 that llvm::json repairs.
  std::string body;
  ++version;
  if (open) {
    body = formatv("{{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\","
                   "\"params\":{{\"textDocument\":{{\"uri\":\"{0}\","
                   "\"languageId\":\"mlir\",\"version\":{1},\"text\":{2}}}}",
                   kUri, version, quoteRawJSONString(text))
               .str();
  } else {
    body =
        formatv("{{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\","
                "\"params\":{{\"textDocument\":{{\"uri\":\"{0}\","
                "\"version\":{1}},\"contentChanges\":[{{\"text\":{2}}]}}",
                kUri, version, quoteRawJSONString(text))
            .str();
  }
  if (!server.sendBody(body))
    return fail("cannot send the document: the server is gone");
  return true;
}

json::Value Fuzzer::randomPosition(StringRef text) {
  int64_t lines = text.count('\n') + 1;
  int64_t line = pick(lines + 2);
  int64_t character = pick(120);
  if (chance(3))
    line = -1 - pick(5);
  if (chance(3))
    character = std::numeric_limits<int32_t>::max();
  return json::Object{{"line", line}, {"character", character}};
}

bool Fuzzer::randomQueries(StringRef text) {
  json::Object document{{"uri", kUri}};
  for (unsigned i = 0, e = 1 + pick(4); i < e; ++i) {
    json::Value position = randomPosition(text);
    switch (pick(9)) {
    case 0:
      if (!request("textDocument/hover",
                   json::Object{{"textDocument", json::Object(document)},
                                {"position", position}}))
        return false;
      break;
    case 1:
      if (!request("textDocument/definition",
                   json::Object{{"textDocument", json::Object(document)},
                                {"position", position}}))
        return false;
      break;
    case 2:
      if (!request("textDocument/references",
                   json::Object{{"textDocument", json::Object(document)},
                                {"position", position},
                                {"context", json::Object{{"includeDeclaration",
                                                          chance(50)}}}}))
        return false;
      break;
    case 3:
      if (!request("textDocument/completion",
                   json::Object{{"textDocument", json::Object(document)},
                                {"position", position}}))
        return false;
      break;
    case 4:
      if (!request("textDocument/documentSymbol",
                   json::Object{{"textDocument", json::Object(document)}}))
        return false;
      break;
    case 5:
      if (!request("textDocument/codeLens",
                   json::Object{{"textDocument", json::Object(document)}}))
        return false;
      break;
    case 6: {
      // The editing features: on text that parses, that does not, or that
      // nests too deep, at positions in and out of it.
      json::Value other = randomPosition(text);
      json::Object range{{"start", json::Value(position)},
                         {"end", std::move(other)}};
      json::Object diagnostic{
          {"range", json::Object(range)},
          {"severity", 1 + pick(4)},
          {"source", chance(50) ? "mlir" : "executor-pipeline"},
          {"message", "an error {{with}} braces"}};
      json::Array diagnostics;
      diagnostics.push_back(std::move(diagnostic));
      json::Value requests[] = {
          json::Object{{"textDocument", json::Object(document)},
                       {"range", json::Object(range)},
                       {"context",
                        json::Object{{"diagnostics", std::move(diagnostics)}}}},
          json::Object{{"textDocument", json::Object(document)},
                       {"position", json::Value(position)}},
          json::Object{{"textDocument", json::Object(document)},
                       {"position", json::Value(position)},
                       {"newName", chance(50) ? "%renamed" : "@renamed"}},
          json::Object{{"textDocument", json::Object(document)}},
          json::Object{{"textDocument", json::Object(document)},
                       {"range", json::Object(range)}},
          json::Object{{"textDocument", json::Object(document)}},
          json::Object{{"textDocument", json::Object(document)},
                       {"options", json::Object{{"dropComments", chance(50)}}}},
          json::Object{{"textDocument", json::Object(document)},
                       {"range", json::Object(range)}},
          json::Object{{"uri", kUri}},
      };
      StringRef methods[] = {"textDocument/codeAction",
                             "textDocument/prepareRename",
                             "textDocument/rename",
                             "textDocument/semanticTokens/full",
                             "textDocument/semanticTokens/range",
                             "textDocument/foldingRange",
                             "textDocument/formatting",
                             "textDocument/inlayHint",
                             "mlir/convertToBytecode"};
      unsigned which = pick(std::size(methods));
      if (!request(methods[which], std::move(requests[which])))
        return false;
      break;
    }
    default: {
      // Wrong params: InvalidParams.
      json::Value params = nullptr;
      switch (pick(5)) {
      case 0:
        params = json::Object{{"textDocument", json::Object(document)},
                              {"position", "here"}};
        break;
      case 1:
        params = json::Object{{"position", position}};
        break;
      case 2:
        params = json::Object{{"textDocument", json::Object{{"uri", 42}}},
                              {"position", position}};
        break;
      case 3:
        params = json::Array{1, 2, 3};
        break;
      default:
        params =
            json::Object{{"textDocument", json::Object{{"uri", "not a uri"}}},
                         {"position", position}};
        break;
      }
      StringRef methods[] = {"textDocument/hover", "textDocument/definition",
                             "textDocument/references",
                             "textDocument/completion"};
      if (!request(methods[pick(4)], std::move(params), -32602))
        return false;
      break;
    }
    }
  }
  // An unknown document answers with nothing, not an error.
  if (chance(20) &&
      !request(
          "textDocument/hover",
          json::Object{{"textDocument",
                        json::Object{{"uri", "file:///fuzz/unknown.mlir"}}},
                       {"position", randomPosition(text)}}))
    return false;
  return true;
}

bool Fuzzer::malformedMessages() {
  std::string deep(100000, '[');
  struct Case {
    std::string body;
    std::optional<int64_t> code;
  } cases[] = {
      {"{\"jsonrpc\":\"2.0\",\"id\":", -32700},
      {"not json at all", -32700},
      {"\xff\xfe\x00garbage", -32700},
      {"[1,2,3]", -32600},
      {"\"a string\"", -32600},
      {"{}", -32600},
      {"{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"textDocument/hover\"}",
       -32600},
      {"{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"x\"}", -32600},
      {"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":42}", -32600},
      {"{\"jsonrpc\":\"2.0\",\"result\":1}", -32600},
      {deep, -32600},
      {"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"no/such/method\"}", -32601},
      {"{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"textDocument/hover\","
       "\"params\":{\"textDocument\":{\"uri\":\"file:///x.mlir\"}}}",
       -32602},
      {"{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"executor/pipelinePreview\","
       "\"params\":{\"uri\":3}}",
       -32602},
  };
  for (Case &c : cases)
    if (!requestBody(c.body, c.code))
      return false;
  // Notifications with bad params and responses nobody asked for: no answer
  // is due, the server just keeps serving.
  if (!requestBody("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\","
                   "\"params\":{\"textDocument\":5}}",
                   std::nullopt, /*expectAnswer=*/false) ||
      !requestBody(
          "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\","
          "\"params\":{\"textDocument\":{\"uri\":\"file:///nope.mlir\","
          "\"version\":3},\"contentChanges\":[{\"text\":\"\"}]}}",
          std::nullopt, false) ||
      !requestBody("{\"jsonrpc\":\"2.0\",\"id\":12345,\"result\":null}",
                   std::nullopt, false) ||
      !requestBody("{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\","
                   "\"params\":{\"id\":999999}}",
                   std::nullopt, false) ||
      !requestBody("{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\","
                   "\"params\":{}}",
                   std::nullopt, false))
    return false;
  return true;
}

bool Fuzzer::previews(StringRef text) {
  // A preview superseded by an edit, one cancelled, one that runs through.
  json::Object params{{"uri", kUri}};
  int64_t superseded = nextId++;
  server.send(makeRequest(superseded, "executor/pipelinePreview",
                          json::Object(params)));
  if (!openOrChange(text, /*open=*/false))
    return false;
  std::optional<json::Value> response =
      server.waitForResponse(superseded, std::chrono::milliseconds(timeoutMs));
  ++requests;
  if (!response)
    return fail("no answer to a superseded preview");

  int64_t cancelled = nextId++;
  server.send(
      makeRequest(cancelled, "executor/pipelinePreview", json::Object(params)));
  server.send(
      makeNotification("$/cancelRequest", json::Object{{"id", cancelled}}));
  response =
      server.waitForResponse(cancelled, std::chrono::milliseconds(timeoutMs));
  ++requests;
  if (!response)
    return fail("no answer to a cancelled preview");

  // The text also as the edited IR after a pass of the default pipeline
  // (executor/rerunFrom), the pass picked by the text's size.
  int64_t pass = static_cast<int64_t>(text.size() % 17) - 1;
  return request("executor/pipelinePreview",
                 json::Object{{"uri", kUri},
                              {"pipeline", "builtin.module(cse)"}}) &&
         request("executor/rerunFrom", json::Object{{"uri", kUri},
                                                    {"pass", pass},
                                                    {"text", text.str()},
                                                    {"ir", "none"}});
}

bool Fuzzer::bigFile() {
  if (!bigLines)
    return true;
  std::string text = "module {\n";
  unsigned functions = bigLines / 100;
  for (unsigned f = 0; f < functions; ++f) {
    text += formatv("  func.func @f{0}(%arg0: i64) -> i64 {{\n", f).str();
    text += "    %v0 = arith.addi %arg0, %arg0 : i64\n";
    for (unsigned i = 1; i < 97; ++i)
      text += formatv("    %v{0} = arith.muli %v{1}, %arg0 : i64\n", i, i - 1)
                  .str();
    text += "    return %v96 : i64\n  }\n";
  }
  text += "}\n";
  outs() << formatv("big file: {0} lines\n", StringRef(text).count('\n'));
  if (!openOrChange(text, /*open=*/false))
    return false;
  json::Object document{{"uri", kUri}};
  int64_t lastLine = StringRef(text).count('\n') - 3;
  return request("textDocument/hover",
                 json::Object{{"textDocument", json::Object(document)},
                              {"position", json::Object{{"line", lastLine},
                                                        {"character", 6}}}}) &&
         request(
             "textDocument/references",
             json::Object{
                 {"textDocument", json::Object(document)},
                 {"position", json::Object{{"line", 2}, {"character", 30}}},
                 {"context", json::Object{{"includeDeclaration", true}}}}) &&
         stillAnswers();
}

bool Fuzzer::waitForDiagnostics(StringRef text) {
  while (true) {
    std::optional<json::Value> message =
        server.read(std::chrono::milliseconds(timeoutMs));
    if (!message)
      return fail(formatv("no diagnostics for version {0}", version));
    const json::Object *object = message->getAsObject();
    if (!object || object->getString("method") !=
                       StringRef("textDocument/publishDiagnostics"))
      continue;
    const json::Object *params = object->getObject("params");
    if (!params || params->getInteger("version") != version)
      continue;
    std::string body = formatv("{0}", *message).str();
    if (!text.empty() && !StringRef(body).contains(text))
      return fail(formatv("the diagnostics of version {0} do not say \"{1}\": "
                          "{2}",
                          version, text, StringRef(body).take_front(400)));
    return true;
  }
}

bool Fuzzer::deepNesting() {
  // Each nests far deeper than the server parses: a diagnostic says so.
  struct Case {
    StringRef open, close;
    unsigned depth;
  } cases[] = {
      {"module {\n", "}\n", 10000},
      {"module {\n", "}\n", 1001},
      {"func.func @f() {\n  \"x.op\"() ({\n", "  }) : () -> ()\n}\n", 3000},
      {"[", "]", 20000},
      {"(", ")", 20000},
      {"tensor<", ">", 20000},
      {"{", "}", 100000},
  };
  for (const Case &c : cases) {
    std::string text;
    text.reserve((c.open.size() + c.close.size()) * c.depth + 32);
    for (unsigned i = 0; i < c.depth; ++i)
      text += c.open;
    if (chance(50))
      for (unsigned i = 0; i < c.depth; ++i)
        text += c.close;
    if (!openOrChange(text, /*open=*/false) ||
        !waitForDiagnostics(
            "levels here; executor-lsp-server does not parse") ||
        !randomQueries(text))
      return false;
  }
  outs() << formatv("deep nesting: {0} documents\n", std::size(cases));
  return true;
}

bool Fuzzer::largeDocuments(ArrayRef<std::string> seeds) {
  if (!largeMb)
    return true;
  // Seeds repeated (each copy in its own `// -----` chunk half of the time)
  // to 1 MiB, 3 MiB and --large-document-mb, then mutated.
  SmallVector<uint64_t> sizes = {uint64_t(1) << 20, uint64_t(3) << 20,
                                 uint64_t(largeMb) << 20};
  for (uint64_t target : sizes) {
    std::string text;
    text.reserve(target + 4096);
    bool split = chance(50);
    while (text.size() < target) {
      text += seeds[pick(seeds.size())];
      text += split ? "\n// -----\n" : "\n";
    }
    text = mutate(std::move(text));
    if (!openOrChange(text, /*open=*/false) || !waitForDiagnostics("") ||
        !randomQueries(text) || !previews(text))
      return false;
  }
  outs() << formatv("large documents: up to {0} MiB\n", largeMb.getValue());
  return true;
}

bool Fuzzer::malformedFraming() {
  // Each is answered with -32700 (id null); the stream goes on.
  StringRef body = "{\"jsonrpc\":\"2.0\",\"id\":999999,\"method\":"
                   "\"textDocument/documentSymbol\",\"params\":{}}";
  std::string cases[] = {
      "Content-Length: abc\r\n\r\n" + body.str(),
      std::string("Content-Length: 1\0\0\r\n\r\n", 23) + body.str(),
      "Content-Length: 99999999999999999999999\r\n\r\n" + body.str(),
      "Content-Length: 1073741824\r\n\r\n" + body.str(),
      "Content-Type: text/plain\r\n\r\n" + body.str(),
      "Content-Length: -1\r\n\r\n" + body.str(),
  };
  for (const std::string &bytes : cases) {
    ++requests;
    if (!server.sendRaw(bytes))
      return fail("cannot send: the server is gone");
    std::optional<json::Value> response;
    while (true) {
      response = server.read(std::chrono::milliseconds(timeoutMs));
      if (!response)
        return fail(formatv("no answer to the malformed header {0}",
                            StringRef(bytes).take_front(40)));
      if (!response->getAsObject()->get("method"))
        break;
    }
    const json::Object *error = response->getAsObject()->getObject("error");
    std::optional<int64_t> code =
        error ? error->getInteger("code") : std::nullopt;
    if (code != -32700)
      return fail(formatv("expected error -32700 for the header {0}, got {1}",
                          StringRef(bytes).take_front(40), *response));
    ++errorCodes[*code];
    if (!stillAnswers())
      return false;
  }
  return true;
}

bool Fuzzer::run(ArrayRef<std::string> seeds) {
  if (!request("initialize", json::Object{{"processId", nullptr},
                                          {"rootUri", nullptr},
                                          {"capabilities", json::Object{}}}))
    return false;
  server.send(makeNotification("initialized", json::Object{}));
  if (!openOrChange(seeds.front(), /*open=*/true))
    return false;
  if (!malformedMessages() || !malformedFraming() || !deepNesting())
    return false;
  for (unsigned i = 0; i < iterations; ++i) {
    std::string text = mutate(seeds[pick(seeds.size())]);
    if (!openOrChange(text, /*open=*/false) || !randomQueries(text))
      return false;
    if (i % 25 == 0 && !previews(text))
      return false;
    if (i % 50 == 0 && !malformedMessages())
      return false;
  }
  if (!bigFile() || !largeDocuments(seeds))
    return false;

  // Shutdown while a preview runs: both are answered, then a clean exit.
  if (!openOrChange(seeds.front(), /*open=*/false))
    return false;
  int64_t preview = nextId++;
  server.send(makeRequest(preview, "executor/pipelinePreview",
                          json::Object{{"uri", kUri}}));
  int64_t shutdown = nextId++;
  server.send(makeRequest(shutdown, "shutdown", nullptr));
  std::vector<json::Value> others;
  if (!server.waitForResponse(shutdown, std::chrono::milliseconds(timeoutMs),
                              &others))
    return fail("no answer to shutdown");
  bool previewAnswered = llvm::any_of(others, [&](const json::Value &m) {
    const json::Object *object = m.getAsObject();
    return object && object->getInteger("id") == preview;
  });
  if (!previewAnswered &&
      !server.waitForResponse(preview, std::chrono::milliseconds(timeoutMs)))
    return fail("the preview running at shutdown got no answer");
  requests += 2;
  server.send(makeNotification("exit", nullptr));
  int code = server.finish(std::chrono::milliseconds(timeoutMs));
  if (code != 0)
    return fail(
        formatv("the server exited with {0} after shutdown and exit", code));
  return true;
}
} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "fuzz test for executor-lsp-server\n");
  std::vector<std::string> seeds;
  for (const std::string &path : seedFiles) {
    auto buffer = MemoryBuffer::getFile(path);
    if (!buffer) {
      errs() << "cannot read " << path << "\n";
      return 2;
    }
    seeds.push_back((*buffer)->getBuffer().str());
  }
  LspProcess server;
  std::string error;
  if (!server.start({serverPath, "--pipeline-diagnostics-delay-ms=50"},
                    error)) {
    errs() << error << "\n";
    return 2;
  }
  Fuzzer fuzzer(server);
  bool ok = fuzzer.run(seeds);
  outs() << formatv("seed {0}: {1} documents, {2} requests answered\n",
                    seed.getValue(), iterations.getValue(), fuzzer.requests);
  for (auto [code, count] : fuzzer.errorCodes)
    outs() << formatv("  error {0}: {1}\n", code, count);
  outs() << formatv("  pipeline worker crashes survived: {0}\n",
                    fuzzer.workerCrashes);
  if (!ok) {
    outs() << "FAILED\n";
    return 1;
  }
  outs() << "OK\n";
  return 0;
}
