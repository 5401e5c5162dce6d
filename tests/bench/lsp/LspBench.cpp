//===- LspBench.cpp - executor-lsp-server against mlir-lsp-server ---------===//
//
// 1. didChange -> publishDiagnostics on a generated 10,000-line .mlir of
//    upstream ops (func, arith, scf, memref), for executor-lsp-server and the
//    stock mlir-lsp-server in the same run, alternating edits between the two;
//    prints both medians and their ratio (goal: at most 1.0).
// 2. The editing requests (code actions, rename, semantic tokens, folding,
//    formatting, inlay hints, bytecode) on the same 10,000-line file and on
//    a 10,000-op host program; the medians of both servers where the stock
//    one has the method (goal: under 100 ms each).
// 3. executor/pipelinePreview (the default pipeline, every snapshot's IR) on a
//    generated host program of 10,000 ops that launches kernels of a
//    dispatched target; prints the time (goal: under 1 s).
// 4. --memory (only this): the server's memory over 1,000 edits of issue 39's
//    program of N targets, each edit one constant of one kernel followed by
//    executor/pipelinePreview, with a small recording cache; prints VmRSS and
//    VmHWM of the server and what its caches hold (executor/cacheStatistics)
//    at the start and after every tenth of the edits.
//
//===----------------------------------------------------------------------===//
#include "LspTestClient.h"

#include "../TargetsProgram.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace llvm;
using namespace executor_studio::lsp_test;
using Clock = std::chrono::steady_clock;

namespace {
cl::opt<std::string> ourServer("server", cl::desc("executor-lsp-server"),
                               cl::init(EXECUTOR_LSP_SERVER_PATH));
cl::opt<std::string> referenceServer("reference",
                                     cl::desc("the stock mlir-lsp-server"),
                                     cl::init(MLIR_LSP_SERVER_PATH));
cl::opt<unsigned> lines("lines", cl::desc("Lines of the edited file"),
                        cl::init(10000));
cl::opt<unsigned> edits("edits", cl::desc("Timed edits per server"),
                        cl::init(20));
cl::opt<unsigned> previewOps("preview-ops",
                             cl::desc("Ops of the previewed host program"),
                             cl::init(10000));
cl::opt<unsigned> previews("previews", cl::desc("Timed previews"), cl::init(5));
cl::opt<unsigned> requests("requests",
                           cl::desc("Timed editing requests of each kind"),
                           cl::init(20));
cl::opt<bool> memory("memory",
                     cl::desc("Only the server's memory over many edits of "
                              "a program of --memory-targets targets"));
cl::opt<unsigned> memoryEdits("memory-edits",
                              cl::desc("Edits (each followed by a preview) "
                                       "of --memory"),
                              cl::init(1000));
cl::opt<unsigned> memoryTargets("memory-targets",
                                cl::desc("Targets of the program --memory "
                                         "edits"),
                                cl::init(8));
cl::opt<unsigned> memoryCacheMB("memory-cache-mb",
                                cl::desc("The server's recording cache limit "
                                         "(--recording-cache-mb) in --memory"),
                                cl::init(32));

constexpr std::chrono::milliseconds kTimeout(120000);

/// Upstream ops only, so that both servers read it; `variant` changes one
/// constant per function so every edit reparses a different text.
std::string generateUpstreamFile(unsigned lineCount, unsigned variant) {
  std::string text = "module {\n";
  // Each function takes 51 lines; enough of them to reach `lineCount`.
  unsigned perFunction = 50;
  unsigned functions = std::max(1u, (lineCount - 2 + 50) / 51);
  for (unsigned f = 0; f < functions; ++f) {
    text += formatv("  func.func @kernel{0}(%arg0: memref<64xf64>, %arg1: "
                    "i64, %arg2: f64) -> (i64, f64) {{\n",
                    f)
                .str();
    text += formatv("    %c0 = arith.constant 0 : index\n"
                    "    %c1 = arith.constant 1 : index\n"
                    "    %c64 = arith.constant 64 : index\n"
                    "    %k = arith.constant {0} : i64\n",
                    f + variant)
                .str();
    unsigned body = perFunction - 12;
    text += "    %i0 = arith.addi %arg1, %k : i64\n";
    text += "    %f0 = arith.addf %arg2, %arg2 : f64\n";
    for (unsigned i = 1; i < body / 2; ++i) {
      text += formatv("    %i{0} = arith.muli %i{1}, %arg1 : i64\n", i, i - 1)
                  .str();
      text += formatv("    %f{0} = arith.mulf %f{1}, %arg2 : f64\n", i, i - 1)
                  .str();
    }
    unsigned last = body / 2 - 1;
    text += formatv("    %s = scf.for %iv = %c0 to %c64 step %c1 "
                    "iter_args(%acc = %f{0}) -> (f64) {{\n"
                    "      %v = memref.load %arg0[%iv] : memref<64xf64>\n"
                    "      %w = arith.addf %acc, %v : f64\n"
                    "      memref.store %w, %arg0[%iv] : memref<64xf64>\n"
                    "      scf.yield %w : f64\n"
                    "    }\n",
                    last)
                .str();
    text += formatv("    return %i{0}, %s : i64, f64\n  }\n", last).str();
  }
  text += "}\n";
  return text;
}

/// The targets the host programs launch into: one dispatched, one local.
constexpr StringRef kTargets =
    R"(  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : memref<4xf64>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf64>
        %s = arith.mulf %v, %v : f64
        memref.store %s, %y[%i] : memref<4xf64>
      }
      return %y : memref<4xf64>
    }
  }
  module @local attributes {catalyst.target = {}} {
    func.func @scale(%x: memref<4xf64>) -> memref<4xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %h = arith.constant 5.000000e-01 : f64
      %y = memref.alloc() : memref<4xf64>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf64>
        %s = arith.mulf %v, %h : f64
        memref.store %s, %y[%i] : memref<4xf64>
      }
      return %y : memref<4xf64>
    }
  }
)";

/// A host program of about `opCount` ops in bufferized form: `launches`
/// blocks of arithmetic in @main, each feeding a launch of the dispatched
/// target (the shape of the pipeline recorder's benchmark), and one launch
/// of the local target.
std::string generateHostProgram(unsigned opCount, unsigned launches) {
  std::string text = "module @host {\n"
                     "  func.func @setup() {\n    return\n  }\n"
                     "  func.func @main(%seed: f64, %x: memref<4xf64>) -> "
                     "f64 {\n"
                     "    %c0 = arith.constant 0 : index\n"
                     "    %acc0 = arith.addf %seed, %seed : f64\n";
  unsigned perLaunch = std::max(1u, opCount / launches - 3);
  unsigned value = 0;
  for (unsigned l = 0; l < launches; ++l) {
    std::string prev = l == 0 ? "%acc0" : formatv("%r{0}", l - 1).str();
    for (unsigned i = 0; i < perLaunch; ++i) {
      std::string next = formatv("%v{0}", value++).str();
      text += formatv("    {0} = arith.{1} {2}, %seed : f64\n", next,
                      i % 2 ? "mulf" : "addf", prev)
                  .str();
      prev = next;
    }
    text += formatv("    memref.store {0}, %x[%c0] : memref<4xf64>\n"
                    "    %y{1} = catalyst.launch_kernel @compute::@square(%x) "
                    ": (memref<4xf64>) -> memref<4xf64>\n"
                    "    %r{1} = memref.load %y{1}[%c0] : memref<4xf64>\n",
                    prev, l)
                .str();
  }
  text += formatv("    %z = catalyst.launch_kernel @local::@scale(%x) : "
                  "(memref<4xf64>) -> memref<4xf64>\n"
                  "    return %r{0} : f64\n  }\n",
                  launches - 1)
              .str();
  text += kTargets;
  text += "}\n";
  return text;
}

/// The same amount of work spread over functions of 100 ops: every nested
/// pass of the pipeline then records a snapshot per function.
std::string generateHostFunctions(unsigned opCount) {
  std::string text = "module @host {\n"
                     "  func.func @setup() {\n    return\n  }\n";
  unsigned functions = std::max(1u, opCount / 100);
  for (unsigned f = 0; f < functions; ++f) {
    text += formatv("  func.func @step{0}(%x: memref<4xf64>, %a: f64) -> "
                    "memref<4xf64> {{\n"
                    "    %c0 = arith.constant 0 : index\n"
                    "    %v0 = memref.load %x[%c0] : memref<4xf64>\n",
                    f)
                .str();
    for (unsigned i = 1; i < 95; ++i)
      text += formatv("    %v{0} = arith.{1} %v{2}, %a : f64\n", i,
                      i % 2 ? "mulf" : "addf", i - 1)
                  .str();
    text += "    memref.store %v94, %x[%c0] : memref<4xf64>\n"
            "    %y = catalyst.launch_kernel @compute::@square(%x) : "
            "(memref<4xf64>) -> memref<4xf64>\n"
            "    %z = catalyst.launch_kernel @local::@scale(%y) : "
            "(memref<4xf64>) -> memref<4xf64>\n"
            "    return %z : memref<4xf64>\n  }\n";
  }
  text += kTargets;
  text += "}\n";
  return text;
}

struct Server {
  std::string name;
  LspProcess process;
  int64_t nextId = 1;
  int64_t version = 1;
  std::vector<double> samples;
};

bool startServer(Server &server, const std::vector<std::string> &command) {
  std::string error;
  if (!server.process.start(command, error, "/dev/null")) {
    errs() << error << "\n";
    return false;
  }
  int64_t id = server.nextId++;
  server.process.send(makeRequest(
      id, "initialize",
      json::Object{
          {"processId", nullptr},
          {"rootUri", nullptr},
          {"capabilities",
           json::Object{
               {"textDocument",
                json::Object{{"documentSymbol",
                              json::Object{{"hierarchicalDocumentSymbolSupport",
                                            true}}}}}}}}));
  if (!server.process.waitForResponse(id, kTimeout)) {
    errs() << server.name << ": no answer to initialize\n";
    return false;
  }
  server.process.send(makeNotification("initialized", json::Object{}));
  return true;
}

/// shutdown, exit, and the process waited for (each within kTimeout).
void stopServer(Server &server) {
  int64_t id = server.nextId++;
  server.process.send(makeRequest(id, "shutdown", nullptr));
  server.process.waitForResponse(id, kTimeout);
  server.process.send(makeNotification("exit", nullptr));
  server.process.finish(kTimeout);
}

/// Sends `text` (didOpen when `open`) and returns the milliseconds until the
/// diagnostics of that version arrive, or a negative value.
double timeDiagnostics(Server &server, StringRef uri, const std::string &text,
                       bool open) {
  int64_t version = ++server.version;
  json::Value message =
      open
          ? makeNotification("textDocument/didOpen",
                             json::Object{{"textDocument",
                                           json::Object{{"uri", uri},
                                                        {"languageId", "mlir"},
                                                        {"version", version},
                                                        {"text", text}}}})
          : makeNotification(
                "textDocument/didChange",
                json::Object{{"textDocument",
                              json::Object{{"uri", uri}, {"version", version}}},
                             {"contentChanges",
                              json::Array{json::Object{{"text", text}}}}});
  // Serialise before the clock starts: only the server's time counts.
  std::string body = formatv("{0}", message).str();
  auto start = Clock::now();
  server.process.sendBody(body);
  while (true) {
    std::optional<json::Value> reply = server.process.read(kTimeout);
    if (!reply)
      return -1;
    const json::Object *object = reply->getAsObject();
    if (object->getString("method") != "textDocument/publishDiagnostics")
      continue;
    const json::Object *params = object->getObject("params");
    if (params && params->getInteger("version") == version)
      break;
  }
  return std::chrono::duration<double, std::milli>(
             server.process.getLastArrival() - start)
      .count();
}

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double mean(const std::vector<double> &values) {
  double sum = 0;
  for (double v : values)
    sum += v;
  return values.empty() ? 0 : sum / values.size();
}

bool benchDiagnostics() {
  Server ours, stock;
  ours.name = "executor-lsp-server";
  stock.name = "mlir-lsp-server";
  if (!startServer(ours, {ourServer}) || !startServer(stock, {referenceServer}))
    return false;
  StringRef uri = "file:///bench/upstream.mlir";
  std::string first = generateUpstreamFile(lines, 0);
  outs() << formatv("didChange -> publishDiagnostics on a {0}-line file of "
                    "upstream ops ({1} KB), {2} edits each, alternating\n",
                    StringRef(first).count('\n'), first.size() / 1024,
                    edits.getValue());
  for (Server *server : {&ours, &stock}) {
    if (timeDiagnostics(*server, uri, first, /*open=*/true) < 0) {
      errs() << server->name << ": no diagnostics after didOpen\n";
      return false;
    }
    // Warm up (page in, load dialects).
    for (unsigned i = 1; i <= 2; ++i)
      timeDiagnostics(*server, uri, generateUpstreamFile(lines, i), false);
  }
  for (unsigned i = 0; i < edits; ++i) {
    std::string text = generateUpstreamFile(lines, 100 + i);
    // Alternate who goes first so drift hits both alike.
    Server *order[2] = {&ours, &stock};
    if (i % 2)
      std::swap(order[0], order[1]);
    for (Server *server : order) {
      double ms = timeDiagnostics(*server, uri, text, false);
      if (ms < 0) {
        errs() << server->name << ": no diagnostics after didChange\n";
        return false;
      }
      server->samples.push_back(ms);
    }
  }
  for (Server *server : {&ours, &stock}) {
    outs() << formatv(
        "  {0,-22} median {1,8:f2} ms   mean {2,8:f2} ms   min "
        "{3,8:f2} ms\n",
        server->name, median(server->samples), mean(server->samples),
        *std::min_element(server->samples.begin(), server->samples.end()));
  }
  double ratio = median(ours.samples) / median(stock.samples);
  outs() << formatv("  ratio (executor-lsp-server / mlir-lsp-server, "
                    "medians): {0:f3}  (goal <= 1.0: {1})\n",
                    ratio, ratio <= 1.0 ? "met" : "NOT met");
  for (Server *server : {&ours, &stock})
    stopServer(*server);
  return true;
}

/// Sends one request and returns the milliseconds until its answer arrived
/// (negative on no answer); `ok` says whether it was no error.
double timeRequest(Server &server, StringRef method, json::Value params,
                   bool &ok) {
  int64_t id = server.nextId++;
  std::string body =
      formatv("{0}", makeRequest(id, method, std::move(params))).str();
  auto start = Clock::now();
  server.process.sendBody(body);
  std::optional<json::Value> reply =
      server.process.waitForResponse(id, kTimeout);
  if (!reply)
    return -1;
  ok = reply->getAsObject()->get("error") == nullptr;
  return std::chrono::duration<double, std::milli>(
             server.process.getLastArrival() - start)
      .count();
}

bool benchEditing() {
  Server ours, stock;
  ours.name = "executor-lsp-server";
  stock.name = "mlir-lsp-server";
  if (!startServer(ours, {ourServer, "--pipeline-diagnostics=false"}) ||
      !startServer(stock, {referenceServer}))
    return false;
  StringRef uri = "file:///bench/upstream.mlir";
  StringRef hostUri = "file:///bench/host.mlir";
  std::string text = generateUpstreamFile(lines, 0);
  std::string host = generateHostProgram(previewOps, 50);
  for (Server *server : {&ours, &stock})
    if (timeDiagnostics(*server, uri, text, /*open=*/true) < 0)
      return false;
  if (timeDiagnostics(ours, hostUri, host, /*open=*/true) < 0)
    return false;
  unsigned lineCount = StringRef(text).count('\n');
  // The middle function: `%arg1` on its first line, its name @kernelN.
  unsigned function = lineCount / 51 / 2;
  unsigned fnLine = 1 + function * 51;
  auto doc = [](StringRef u) { return json::Object{{"uri", u}}; };
  auto pos = [](unsigned line, unsigned character) {
    return json::Object{{"line", line}, {"character", character}};
  };
  std::string fnHeader =
      formatv("  func.func @kernel{0}(%arg0: memref<64xf64>, %arg1: ", function)
          .str();
  unsigned argColumn = fnHeader.find("%arg1") + 1;
  unsigned symbolColumn = fnHeader.find("@kernel") + 1;
  json::Object diagnostic{{"range", json::Object{{"start", pos(fnLine + 5, 4)},
                                                 {"end", pos(fnLine + 5, 8)}}},
                          {"severity", 1},
                          {"source", "mlir"},
                          {"message", "'arith.muli' op an error to check for"}};
  json::Array diagnostics;
  diagnostics.push_back(std::move(diagnostic));
  struct Request {
    std::string title;
    std::string method;
    json::Value params;
    bool stockHasIt;
  };
  std::vector<Request> list = {
      {"textDocument/codeAction", "textDocument/codeAction",
       json::Object{
           {"textDocument", doc(uri)},
           {"range", json::Object{{"start", pos(fnLine + 5, 4)},
                                  {"end", pos(fnLine + 5, 8)}}},
           {"context", json::Object{{"diagnostics", std::move(diagnostics)}}}},
       true},
      {"textDocument/prepareRename", "textDocument/prepareRename",
       json::Object{{"textDocument", doc(uri)},
                    {"position", pos(fnLine, argColumn)}},
       false},
      {"textDocument/rename (%arg1)", "textDocument/rename",
       json::Object{{"textDocument", doc(uri)},
                    {"position", pos(fnLine, argColumn)},
                    {"newName", "%renamed"}},
       false},
      {"textDocument/rename (@kernelN)", "textDocument/rename",
       json::Object{{"textDocument", doc(uri)},
                    {"position", pos(fnLine, symbolColumn)},
                    {"newName", "@renamed"}},
       false},
      {"textDocument/semanticTokens/full", "textDocument/semanticTokens/full",
       json::Object{{"textDocument", doc(uri)}}, false},
      {"textDocument/semanticTokens/range (100 lines)",
       "textDocument/semanticTokens/range",
       json::Object{{"textDocument", doc(uri)},
                    {"range", json::Object{{"start", pos(fnLine, 0)},
                                           {"end", pos(fnLine + 100, 0)}}}},
       false},
      {"textDocument/foldingRange", "textDocument/foldingRange",
       json::Object{{"textDocument", doc(uri)}}, false},
      {"textDocument/formatting", "textDocument/formatting",
       json::Object{
           {"textDocument", doc(uri)},
           {"options", json::Object{{"tabSize", 2}, {"insertSpaces", true}}}},
       false},
      {"textDocument/inlayHint (host program)", "textDocument/inlayHint",
       json::Object{{"textDocument", doc(hostUri)},
                    {"range", json::Object{{"start", pos(0, 0)},
                                           {"end", pos(100000, 0)}}}},
       false},
      {"mlir/convertToBytecode", "mlir/convertToBytecode",
       json::Object{{"uri", uri}}, true},
  };
  outs() << formatv("editing requests on the {0}-line file ({1} requests "
                    "each, medians; inlay hints on the {2}-line host "
                    "program)\n",
                    lineCount, requests.getValue(),
                    StringRef(host).count('\n'));
  outs() << formatv("  {0,-46} {1,12} {2,12}\n", "method", "executor-lsp",
                    "mlir-lsp");
  bool allMet = true;
  for (Request &request : list) {
    double medians[2] = {-1, -1};
    Server *servers[2] = {&ours, &stock};
    for (unsigned s = 0; s < (request.stockHasIt ? 2u : 1u); ++s) {
      std::vector<double> samples;
      bool ok = true;
      for (unsigned i = 0; i < requests + 1; ++i) {
        bool answerOk = false;
        double ms = timeRequest(*servers[s], request.method,
                                json::Value(request.params), answerOk);
        if (ms < 0) {
          errs() << servers[s]->name << ": no answer to " << request.title
                 << "\n";
          return false;
        }
        ok &= answerOk;
        if (i)
          samples.push_back(ms);
      }
      medians[s] = ok ? median(samples) : -2;
    }
    auto show = [](double ms) {
      if (ms == -1)
        return std::string("-");
      if (ms == -2)
        return std::string("error");
      return formatv("{0:f2} ms", ms).str();
    };
    allMet &= medians[0] >= 0 && medians[0] < 100;
    outs() << formatv("  {0,-46} {1,12} {2,12}\n", request.title,
                      show(medians[0]), show(medians[1]));
  }
  outs() << formatv("  goal: every median under 100 ms: {0}\n",
                    allMet ? "met" : "NOT met");
  for (Server *server : {&ours, &stock})
    stopServer(*server);
  return allMet;
}

/// Times `executor/pipelinePreview` of `text`; `irMode` is the request's
/// "ir" member (empty: the default).
bool benchPreview(StringRef title, const std::string &text, StringRef irMode,
                  bool checkGoal) {
  Server ours;
  ours.name = "executor-lsp-server";
  // Only the preview runs: no pipeline diagnostics in the background.
  if (!startServer(ours, {ourServer, "--pipeline-diagnostics=false"}))
    return false;
  StringRef uri = "file:///bench/host.mlir";
  if (timeDiagnostics(ours, uri, text, /*open=*/true) < 0) {
    errs() << "no diagnostics for the host program\n";
    return false;
  }
  outs() << formatv("executor/pipelinePreview of {0} ({1} lines), ir: {2}\n",
                    title, StringRef(text).count('\n'),
                    irMode.empty() ? "default (every change)" : irMode);
  std::vector<double> samples;
  for (unsigned i = 0; i < previews + 1; ++i) {
    int64_t id = ours.nextId++;
    json::Object params{{"uri", uri}};
    if (!irMode.empty())
      params["ir"] = irMode;
    std::string body =
        formatv("{0}",
                makeRequest(id, "executor/pipelinePreview", std::move(params)))
            .str();
    auto start = Clock::now();
    ours.process.sendBody(body);
    std::optional<json::Value> reply =
        ours.process.waitForResponse(id, kTimeout);
    // Until the answer has arrived, not until this client has parsed it.
    double ms = std::chrono::duration<double, std::milli>(
                    ours.process.getLastArrival() - start)
                    .count();
    const json::Object *result =
        reply ? reply->getAsObject()->getObject("result") : nullptr;
    if (!result) {
      errs() << "the preview failed: "
             << (reply ? formatv("{0}", *reply).str() : "no answer") << "\n";
      return false;
    }
    const json::Array *snapshots = result->getArray("snapshots");
    size_t irBytes = 0, withIR = 0;
    for (const json::Value &snapshot : *snapshots)
      if (auto ir = snapshot.getAsObject()->getString("ir")) {
        irBytes += ir->size();
        ++withIR;
      }
    if (i == 0) {
      outs() << formatv(
          "  succeeded: {0}; {1} snapshots, {2} with IR ({3} KB); "
          "the recorder took {4:f1} ms in the worker\n",
          result->getBoolean("succeeded").value_or(false), snapshots->size(),
          withIR, irBytes / 1024,
          result->getNumber("totalMilliseconds").value_or(0));
      continue; // warm-up
    }
    samples.push_back(ms);
  }
  outs() << formatv("  request -> response: median {0:f1} ms, mean {1:f1} ms, "
                    "min {2:f1} ms",
                    median(samples), mean(samples),
                    *std::min_element(samples.begin(), samples.end()));
  if (checkGoal)
    outs() << formatv("  (goal < 1000 ms: {0})",
                      median(samples) < 1000 ? "met" : "NOT met");
  outs() << "\n";
  stopServer(ours);
  return true;
}
/// VmRSS and VmHWM of process `pid` in KiB, from /proc/PID/status (-1 for a
/// field it does not have).
std::pair<int64_t, int64_t> residentMemory(int pid) {
  std::pair<int64_t, int64_t> kib{-1, -1};
  auto status = MemoryBuffer::getFileAsStream("/proc/" + std::to_string(pid) +
                                              "/status");
  if (!status)
    return kib;
  SmallVector<StringRef> lines;
  (*status)->getBuffer().split(lines, '\n');
  for (StringRef line : lines) {
    auto [name, value] = line.split(':');
    int64_t *field = name == "VmRSS" ? &kib.first
                     : name == "VmHWM" ? &kib.second
                                       : nullptr;
    // "   123456 kB"
    if (field && value.trim().consumeInteger(10, *field))
      *field = -1;
  }
  return kib;
}

/// The server's memory over `memoryEdits` edits of the program of
/// `memoryTargets` targets: each edit changes the constant of one kernel
/// (the kernels in turn, a value no edit used before: every preview records
/// anew and the recording cache takes a new entry), then previews.
bool benchMemory() {
  Server ours;
  ours.name = "executor-lsp-server";
  // The targets' disk cache of the workers goes to a directory of this run
  // (not the user's cache), removed at the end.
  SmallString<128> cacheDir;
  if (std::error_code error =
          sys::fs::createUniqueDirectory("executor-lsp-bench", cacheDir)) {
    errs() << "cannot make a cache directory: " << error.message() << "\n";
    return false;
  }
  ::setenv("EXECUTOR_STUDIO_CACHE_DIR", cacheDir.c_str(), 1);
  llvm::scope_exit removeCache(
      [&] { sys::fs::remove_directories(cacheDir); });
  // Only the preview records: no pipeline diagnostics in the background.
  if (!startServer(ours, {ourServer, "--pipeline-diagnostics=false",
                          formatv("--recording-cache-mb={0}",
                                  memoryCacheMB.getValue())
                              .str()}))
    return false;
  int pid = ours.process.getPid();
  StringRef uri = "file:///bench/targets.mlir";
  unsigned n = std::max(1u, memoryTargets.getValue());
  outs() << formatv("server memory over {0} edits of a program of {1} "
                    "targets (one constant of one kernel, then "
                    "executor/pipelinePreview), recording cache limit "
                    "{2} MiB\n",
                    memoryEdits.getValue(), n, memoryCacheMB.getValue());
  auto preview = [&]() -> bool {
    int64_t id = ours.nextId++;
    ours.process.send(makeRequest(id, "executor/pipelinePreview",
                                  json::Object{{"uri", uri}}));
    std::optional<json::Value> reply =
        ours.process.waitForResponse(id, kTimeout);
    const json::Object *result =
        reply ? reply->getAsObject()->getObject("result") : nullptr;
    if (!result || !result->getBoolean("succeeded").value_or(false)) {
      errs() << "the preview failed: "
             << (reply ? formatv("{0}", *reply).str() : "no answer") << "\n";
      return false;
    }
    return true;
  };
  // Returns VmHWM (KiB): the peak, which a leak raises and the allocator's
  // returning of free pages (VmRSS going down and up again) does not blur.
  auto report = [&](unsigned done) -> std::optional<int64_t> {
    int64_t id = ours.nextId++;
    ours.process.send(
        makeRequest(id, "executor/cacheStatistics", json::Object{}));
    std::optional<json::Value> reply =
        ours.process.waitForResponse(id, kTimeout);
    const json::Object *result =
        reply ? reply->getAsObject()->getObject("result") : nullptr;
    const json::Object *recordings =
        result ? result->getObject("recordings") : nullptr;
    const json::Object *replies =
        result ? result->getObject("replies") : nullptr;
    if (!recordings || !replies) {
      errs() << "no answer to executor/cacheStatistics: "
             << (reply ? formatv("{0}", *reply).str() : "no answer") << "\n";
      return std::nullopt;
    }
    auto [rss, hwm] = residentMemory(pid);
    auto get = [](const json::Object *o, StringRef key) {
      return o->getInteger(key).value_or(-1);
    };
    outs() << formatv("  {0,6} {1,10:f1} {2,10:f1} {3,8} {4,10:f1} {5,8} "
                      "{6,8} {7,8} {8,8}\n",
                      done, rss / 1024.0, hwm / 1024.0,
                      get(recordings, "entries"),
                      get(recordings, "bytes") / 1048576.0,
                      get(recordings, "hits"), get(recordings, "misses"),
                      get(replies, "entries"), get(replies, "hits"));
    return hwm;
  };
  if (timeDiagnostics(ours, uri, generateTargets(n), /*open=*/true) < 0 ||
      !preview()) {
    errs() << "no diagnostics or no preview for the program\n";
    return false;
  }
  outs() << formatv("  {0,6} {1,10} {2,10} {3,8} {4,10} {5,8} {6,8} {7,8} "
                    "{8,8}\n",
                    "edits", "VmRSS MiB", "VmHWM MiB", "entries", "cache MiB",
                    "hits", "misses", "replies", "rhits");
  std::optional<int64_t> first = report(0), half, last;
  if (!first)
    return false;
  unsigned total = memoryEdits;
  auto start = Clock::now();
  for (unsigned i = 1; i <= total; ++i) {
    // Kernel i % n gets 1000 + i: a text no edit sent before.
    std::string text = generateTargets(n, i % n, 1000 + i);
    if (timeDiagnostics(ours, uri, text, /*open=*/false) < 0) {
      errs() << "no diagnostics after edit " << i << "\n";
      return false;
    }
    if (!preview())
      return false;
    // Every tenth of the edits (100, 200, ..., 1,000), and the last.
    if (i % std::max(1u, total / 10) == 0 || i == total) {
      std::optional<int64_t> hwm = report(i);
      if (!hwm)
        return false;
      if (!half && i >= total / 2)
        half = hwm;
      if (i == total)
        last = hwm;
    }
  }
  double seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  // Bounded: the peak past the start by at most the cache's limit and a
  // fixed overhead (the last few replies the reply cache keeps, allocator
  // slack: a thread's new malloc arena is a step of tens of MiB, once).
  // The growth over the second half, when the cache has long been full, is
  // shown: a leak per edit keeps it rising from run to run of more edits.
  int64_t limitKiB = int64_t(memoryCacheMB) << 10;
  int64_t overheadKiB = 64 << 10;
  int64_t grown = *last - *first, lateGrowth = *last - *half;
  bool met = grown <= limitKiB + overheadKiB;
  outs() << formatv("  {0} edits in {1:f1} s; VmHWM grew {2:f1} MiB (goal "
                    "<= limit + 64 MiB = {3} MiB), {4:f1} MiB over the "
                    "second half: {5}\n",
                    total, seconds, grown / 1024.0,
                    (limitKiB + overheadKiB) >> 10, lateGrowth / 1024.0,
                    met ? "met" : "NOT met");
  stopServer(ours);
  return met;
}
} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "executor-lsp-server benchmark against the "
                              "stock mlir-lsp-server\n");
  outs() << "executor-lsp-server: " << ourServer << "\n"
         << "reference:           " << referenceServer << "\n";
  if (memory)
    return benchMemory() ? 0 : 1;
  bool ok = benchDiagnostics();
  if (requests)
    ok = benchEditing() && ok;
  if (!previews)
    return ok ? 0 : 1;
  std::string host = generateHostProgram(previewOps, 50);
  ok = benchPreview(formatv("a {0}-op host program, 50 dispatched launches "
                            "in @main",
                            previewOps.getValue())
                        .str(),
                    host, "", /*checkGoal=*/true) &&
       ok;
  std::string functions = generateHostFunctions(previewOps);
  ok = benchPreview(formatv("{0} ops in {1} host functions of 100 ops, each "
                            "with a dispatched launch",
                            previewOps.getValue(), previewOps / 100)
                        .str(),
                    functions, "", false) &&
       ok;
  ok = benchPreview("the same functions", functions, "none", false) && ok;
  return ok ? 0 : 1;
}
