//===- Server.cpp - executor-lsp-server -------------------------*- C++ -*-===//
#include "ExecutorLsp/Server.h"

#include "ExecutorLsp/Aliases.h"
#include "ExecutorLsp/Bytecode.h"
#include "ExecutorLsp/CheckedInput.h"
#include "ExecutorLsp/CodeActions.h"
#include "ExecutorLsp/TargetTripleActions.h"
#include "ExecutorLsp/DocumentLimits.h"
#include "ExecutorLsp/DocumentSymbols.h"
#include "ExecutorLsp/FoldingRanges.h"
#include "ExecutorLsp/Formatting.h"
#include "ExecutorLsp/InlayHints.h"
#include "ExecutorLsp/Rename.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/SemanticTokens.h"
#include "ExecutorLsp/SourceLocations.h"
#include "ExecutorLsp/SplitFile.h"
#include "ExecutorLsp/TextFile.h"
#include "ExecutorLsp/WorkerProcess.h"

#include "Pipeline/PipelineRecorder.h"
#include "Registration/Registration.h"
#include "Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace executor_studio;
using namespace executor_studio::lsp;
namespace proto = llvm::lsp;
namespace json = llvm::json;
using llvm::Expected;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Protocol extensions
//===----------------------------------------------------------------------===//

namespace {
/// Parameters taken as they come.
struct RawParams {
  json::Value value = nullptr;
};

bool fromJSON(const json::Value &value, RawParams &result, json::Path) {
  result.value = value;
  return true;
}

/// `executor/pipelinePreview` parameters.
struct PipelinePreviewParams {
  proto::URIForFile uri;
  /// A textual pipeline; the default pipeline when absent.
  std::optional<std::string> pipeline;
  /// The `// -----` chunk of a split file.
  std::optional<int64_t> chunk;
  /// Which IR to return: "changes" (default: every snapshot whose IR
  /// differs from the one before), "none", or snapshot indices (-1: the
  /// input).
  std::string ir = "changes";
};

bool fromJSON(const json::Value &value, PipelinePreviewParams &result,
              json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o || !o.map("uri", result.uri) ||
      !o.mapOptional("pipeline", result.pipeline) ||
      !o.mapOptional("chunk", result.chunk))
    return false;
  const json::Value *ir = value.getAsObject()->get("ir");
  if (!ir)
    return true;
  if (std::optional<StringRef> mode = ir->getAsString()) {
    if (*mode == "changes" || *mode == "none") {
      result.ir = mode->str();
      return true;
    }
  } else if (const json::Array *indices = ir->getAsArray()) {
    std::string list;
    for (const json::Value &index : *indices) {
      std::optional<int64_t> number = index.getAsInteger();
      if (!number || *number < -1 || *number > INT32_MAX) {
        path.field("ir").report("expected snapshot indices (-1: the input)");
        return false;
      }
      list += std::to_string(*number) + ",";
    }
    result.ir = list.empty() ? "none" : list;
    return true;
  }
  path.field("ir").report(
      "expected \"changes\", \"none\" or an array of snapshot indices");
  return false;
}

/// `executor/rerunFrom` parameters: the preview's, and the edited IR after
/// one snapshot.
struct RerunFromParams {
  PipelinePreviewParams preview;
  /// The snapshot whose IR `text` replaces (its "index"; -1: the input).
  int64_t pass = -1;
  std::string text;
  /// The URI of the document that holds `text` in the client (the
  /// diagnostics' related locations); `uri` when absent.
  std::optional<std::string> textUri;
};

bool fromJSON(const json::Value &value, RerunFromParams &result,
              json::Path path) {
  if (!fromJSON(value, result.preview, path))
    return false;
  json::ObjectMapper o(value, path);
  if (!o.map("text", result.text) || !o.mapOptional("textUri", result.textUri))
    return false;
  const json::Value *pass = value.getAsObject()->get("pass");
  std::optional<int64_t> number = pass ? pass->getAsInteger() : std::nullopt;
  if (!number || *number < -1 || *number > INT32_MAX) {
    path.field("pass").report(
        "expected the index of the snapshot that `text` replaces (-1: the "
        "input)");
    return false;
  }
  result.pass = *number;
  return true;
}

/// `$/cancelRequest` parameters.
struct CancelParams {
  json::Value id = nullptr;
};

bool fromJSON(const json::Value &value, CancelParams &result, json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o)
    return false;
  const json::Object *object = value.getAsObject();
  const json::Value *id = object->get("id");
  if (!id || (id->kind() != json::Value::String &&
              id->kind() != json::Value::Number)) {
    path.field("id").report("expected a string or a number");
    return false;
  }
  result.id = *id;
  return true;
}

/// `textDocument/rename` parameters.
struct RenameParams {
  proto::TextDocumentIdentifier textDocument;
  proto::Position position;
  std::string newName;
};

bool fromJSON(const json::Value &value, RenameParams &result, json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("textDocument", result.textDocument) &&
         o.map("position", result.position) && o.map("newName", result.newName);
}

/// Parameters that name a document only (`codeLens`,
/// `semanticTokens/full`, `foldingRange`).
struct DocumentParams {
  proto::TextDocumentIdentifier textDocument;
};

bool fromJSON(const json::Value &value, DocumentParams &result,
              json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("textDocument", result.textDocument);
}

/// `textDocument/semanticTokens/range` parameters.
struct DocumentRangeParams {
  proto::TextDocumentIdentifier textDocument;
  proto::Range range;
};

bool fromJSON(const json::Value &value, DocumentRangeParams &result,
              json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("textDocument", result.textDocument) &&
         o.map("range", result.range);
}

/// `textDocument/formatting` parameters: of the options, only ours.
struct FormattingParams {
  proto::TextDocumentIdentifier textDocument;
  std::optional<bool> dropComments;
};

bool fromJSON(const json::Value &value, FormattingParams &result,
              json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o || !o.map("textDocument", result.textDocument))
    return false;
  if (const json::Object *options = value.getAsObject()->getObject("options"))
    result.dropComments = options->getBoolean("dropComments");
  return true;
}

/// `mlir/convertFromBytecode` and `mlir/convertToBytecode` parameters, as
/// mlir-lsp-server takes them.
struct ConvertBytecodeParams {
  proto::URIForFile uri;
};

bool fromJSON(const json::Value &value, ConvertBytecodeParams &result,
              json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("uri", result.uri);
}

/// The command a preview lens runs in the client.
constexpr StringRef kShowPreviewCommand = "executor.showPipelinePreview";

llvm::Error makeError(proto::ErrorCode code, const llvm::Twine &message) {
  return llvm::make_error<proto::LSPError>(message.str(), code);
}

/// The key of a request id in the table of running previews.
std::string getRequestKey(const json::Value &id) {
  return llvm::formatv("{0}", id).str();
}
} // namespace

//===----------------------------------------------------------------------===//
// Job: one run of the pipeline in a worker process
//===----------------------------------------------------------------------===//

namespace {
struct Job {
  enum class Kind { Preview, Diagnostics };

  Job(Kind kind, proto::URIForFile uri, int64_t version)
      : kind(kind), uri(std::move(uri)), version(version) {}

  /// Ends the job now (kills its process). A preview that has not answered
  /// yet answers with `code` and `message`.
  void cancel(proto::ErrorCode code, const std::string &message) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!cancelled) {
        cancelled = true;
        process.kill();
      }
    }
    cv.notify_all();
    answer(makeError(code, message));
  }

  /// Answers the preview request, once.
  void answer(Expected<json::Value> result) {
    proto::Callback<json::Value> callback;
    {
      std::lock_guard<std::mutex> lock(mutex);
      callback = std::move(reply);
      reply = nullptr;
    }
    if (callback)
      callback(std::move(result));
    else if (!result)
      llvm::consumeError(result.takeError());
  }

  bool isCancelled() {
    std::lock_guard<std::mutex> lock(mutex);
    return cancelled;
  }

  const Kind kind;
  const proto::URIForFile uri;
  const int64_t version;
  /// The request id of a preview (for `$/cancelRequest`).
  std::string requestKey;

  std::mutex mutex;
  std::condition_variable cv;
  bool cancelled = false;
  WorkerProcess process;
  proto::Callback<json::Value> reply;

  std::thread thread;
  std::atomic<bool> finished{false};
};

/// What a job runs.
struct JobInput {
  std::string text;
  int chunk = -1;
  std::string pipeline;
  /// The worker's --worker-ir: "changes", "none" or indices.
  std::string ir = "changes";
  unsigned delayMs = 0;
  unsigned timeoutMs = 0;
  /// A re-run: `text` is the edited IR after this snapshot.
  std::optional<int> rerunAfter;
  /// The worker's --worker-uri (the diagnostics' document); the job's URI
  /// when empty.
  std::string textUri;
  /// What the request is called in errors.
  std::string what = "pipeline preview";
};

/// The outcome of a worker run.
struct WorkerOutcome {
  enum class Status { Finished, Cancelled, TimedOut, Failed } status;
  json::Value result = nullptr;
  std::string error;
};
} // namespace

//===----------------------------------------------------------------------===//
// Server
//===----------------------------------------------------------------------===//

namespace {
class Server {
public:
  Server(CheckedInput &input, const ServerOptions &options);
  ~Server();

  // Lifetime.
  void onInitialize(const RawParams &params,
                    proto::Callback<json::Value> reply);
  void onInitialized(const proto::NoParams &) {}
  void onShutdown(const proto::NoParams &,
                  proto::Callback<std::nullptr_t> reply);
  void onInvalidMessage(const RawParams &params,
                        proto::Callback<json::Value> reply);
  void onCancelRequest(const CancelParams &params);

  // Documents.
  void onDidOpen(const proto::DidOpenTextDocumentParams &params);
  void onDidChange(const proto::DidChangeTextDocumentParams &params);
  void onDidClose(const proto::DidCloseTextDocumentParams &params);

  // Queries.
  void onDefinition(const proto::TextDocumentPositionParams &params,
                    proto::Callback<std::vector<proto::Location>> reply);
  void onReferences(const proto::ReferenceParams &params,
                    proto::Callback<std::vector<proto::Location>> reply);
  void onHover(const proto::TextDocumentPositionParams &params,
               proto::Callback<std::optional<proto::Hover>> reply);
  void onDocumentSymbol(const proto::DocumentSymbolParams &params,
                        proto::Callback<json::Value> reply);
  void onCompletion(const proto::CompletionParams &params,
                    proto::Callback<proto::CompletionList> reply);
  void onCodeLens(const DocumentParams &params,
                  proto::Callback<json::Value> reply);
  void onPipelinePreview(const PipelinePreviewParams &params,
                         proto::Callback<json::Value> reply);
  void onRerunFrom(const RerunFromParams &params,
                   proto::Callback<json::Value> reply);
  void onCodeAction(const proto::CodeActionParams &params,
                    proto::Callback<json::Value> reply);
  void onPrepareRename(const proto::TextDocumentPositionParams &params,
                       proto::Callback<json::Value> reply);
  void onRename(const RenameParams &params, proto::Callback<json::Value> reply);
  void onSemanticTokens(const DocumentParams &params,
                        proto::Callback<json::Value> reply);
  void onSemanticTokensRange(const DocumentRangeParams &params,
                             proto::Callback<json::Value> reply);
  void onFoldingRange(const DocumentParams &params,
                      proto::Callback<json::Value> reply);
  void onFormatting(const FormattingParams &params,
                    proto::Callback<json::Value> reply);
  void onInlayHint(const proto::InlayHintsParams &params,
                   proto::Callback<json::Value> reply);
  void onConvertFromBytecode(const ConvertBytecodeParams &params,
                             proto::Callback<json::Value> reply);
  void onConvertToBytecode(const ConvertBytecodeParams &params,
                           proto::Callback<json::Value> reply);

  bool wasShutdownRequested() const { return shutdownRequested; }

  proto::OutgoingNotification<proto::PublishDiagnosticsParams>
      publishDiagnostics;

private:
  TextFile *getFile(const proto::URIForFile &uri) {
    auto it = files.find(uri.file());
    return it == files.end() ? nullptr : it->second.get();
  }
  void updateFile(const proto::URIForFile &uri, std::string contents,
                  int64_t version);

  // Jobs.
  std::shared_ptr<Job> startJob(Job::Kind kind, const proto::URIForFile &uri,
                                int64_t version, JobInput input,
                                proto::Callback<json::Value> reply = nullptr);
  void runJob(const std::shared_ptr<Job> &job, const JobInput &input);
  WorkerOutcome runWorker(Job &job, const JobInput &input);
  void finishPreview(Job &job, WorkerOutcome outcome, const JobInput &input);
  void finishDiagnostics(Job &job, WorkerOutcome outcome);
  /// Cancels the jobs on `file` (all when empty) of `kind` (all when none).
  void cancelJobs(StringRef file, std::optional<Job::Kind> kind,
                  proto::ErrorCode code, const std::string &message);
  void reapJobs();

  CheckedInput &input;
  ServerOptions options;
  mlir::DialectRegistry registry;
  std::unique_ptr<llvm::ThreadPoolInterface> threadPool;
  /// Where a pass of the default pipeline first runs (its snapshot index),
  /// for the module passes before the first nested pipeline.
  llvm::StringMap<unsigned> defaultPassIndices;
  bool shutdownRequested = false;
  /// Format documents with comments that the printer drops
  /// (`formatDropsComments`).
  bool formatDropsComments = false;
  /// The client takes `DocumentSymbol[]` (else `SymbolInformation[]`).
  bool hierarchicalDocumentSymbols = false;
  /// The workspace root (`rootUri`, else `rootPath`): relative file names of
  /// locations are resolved against it.
  std::string workspaceRoot;

  /// The open documents, by file; used on the message thread only.
  llvm::StringMap<std::unique_ptr<TextFile>> files;

  /// Shared with the job threads.
  std::mutex stateMutex;
  struct PublishedState {
    int64_t version = 0;
    std::vector<proto::Diagnostic> parseDiagnostics;
  };
  llvm::StringMap<PublishedState> published;
  std::vector<std::shared_ptr<Job>> jobs;
};
} // namespace

Server::Server(CheckedInput &input, const ServerOptions &options)
    : input(input), options(options) {
  registerAllDialects(registry);
  if (options.verifyThreads != 1)
    threadPool = std::make_unique<llvm::DefaultThreadPool>(
        options.verifyThreads ? llvm::hardware_concurrency(options.verifyThreads)
                              : llvm::hardware_concurrency());

  // The snapshot index of the default pipeline's leading module passes.
  mlir::OpPassManager pm("builtin.module");
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  std::string text = catalyst::getDefaultPipelineText({"workspace", ""});
  llvm::StringRef body = StringRef(text)
                             .drop_front(StringRef("builtin.module(").size())
                             .drop_back();
  if (succeeded(mlir::parsePassPipeline(body, pm, errorStream))) {
    unsigned index = 0;
    for (mlir::Pass &pass : pm.getPasses()) {
      if (pass.getArgument().empty())
        break;
      defaultPassIndices.try_emplace(pass.getArgument(), index++);
    }
  } else {
    proto::Logger::error("cannot parse the default pipeline: {0}", errors);
  }
}

Server::~Server() {
  cancelJobs("", std::nullopt, proto::ErrorCode::RequestCancelled,
             "the server is exiting");
  std::vector<std::shared_ptr<Job>> remaining;
  {
    std::lock_guard<std::mutex> lock(stateMutex);
    remaining = std::move(jobs);
  }
  for (auto &job : remaining)
    if (job->thread.joinable())
      job->thread.join();
}

//===----------------------------------------------------------------------===//
// Lifetime

void Server::onInitialize(const RawParams &params,
                          proto::Callback<json::Value> reply) {
  if (const json::Object *object = params.value.getAsObject()) {
    if (const json::Object *caps = object->getObject("capabilities"))
      if (const json::Object *text = caps->getObject("textDocument"))
        if (const json::Object *symbols = text->getObject("documentSymbol"))
          hierarchicalDocumentSymbols =
              symbols->getBoolean("hierarchicalDocumentSymbolSupport")
                  .value_or(false);
    if (std::optional<StringRef> rootUri = object->getString("rootUri")) {
      if (auto root = proto::URIForFile::fromURI(*rootUri))
        workspaceRoot = root->file().str();
      else
        proto::Logger::error("rootUri {0}: {1}", *rootUri,
                             llvm::toString(root.takeError()));
    } else if (std::optional<StringRef> rootPath =
                   object->getString("rootPath")) {
      llvm::SmallString<256> path(*rootPath);
      if (!llvm::sys::fs::make_absolute(path))
        workspaceRoot = path.str().str();
    }
    if (const json::Object *init = object->getObject("initializationOptions")) {
      if (std::optional<bool> allow =
              init->getBoolean("allowUnregisteredDialect"))
        options.allowUnregisteredDialects = *allow;
      if (std::optional<bool> enable = init->getBoolean("pipelineDiagnostics"))
        options.pipelineDiagnostics = *enable;
      if (std::optional<int64_t> ms = init->getInteger("previewTimeoutMs"))
        if (*ms > 0)
          options.previewTimeoutMs = *ms;
      if (std::optional<bool> drop = init->getBoolean("formatDropsComments"))
        formatDropsComments = *drop;
    }
  }
  json::Object capabilities{
      {"textDocumentSync",
       json::Object{
           {"openClose", true},
           {"change",
            static_cast<int64_t>(proto::TextDocumentSyncKind::Incremental)},
           {"save", true},
       }},
      {"completionProvider",
       json::Object{
           // As mlir-lsp-server: these also accept the selected item.
           {"allCommitCharacters", {"\t", ";", ",", ".", "="}},
           {"resolveProvider", false},
           {"triggerCharacters",
            {".", "%", "^", "!", "#", "(", ",", "<", ":", "[", " ", "\"", "/",
             "{", "@"}},
       }},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"hoverProvider", true},
      {"documentSymbolProvider", true},
      {"codeLensProvider", json::Object{{"resolveProvider", false}}},
      {"codeActionProvider",
       json::Object{{"codeActionKinds",
                     {proto::CodeAction::kQuickFix, kTargetTripleActionKind}}}},
      {"renameProvider", json::Object{{"prepareProvider", true}}},
      {"semanticTokensProvider",
       json::Object{
           {"legend",
            json::Object{
                {"tokenTypes", json::Array(getSemanticTokenTypes())},
                {"tokenModifiers", json::Array(getSemanticTokenModifiers())},
            }},
           {"full", true},
           {"range", true},
       }},
      {"foldingRangeProvider", true},
      {"documentFormattingProvider", true},
      {"inlayHintProvider", true},
      {"experimental", json::Object{{"pipelinePreviewProvider", true},
                                    {"previewCommand", kShowPreviewCommand},
                                    {"bytecodeProvider", true}}},
  };
  reply(json::Object{
      {"serverInfo",
       json::Object{{"name", "executor-lsp-server"}, {"version", "0.1.0"}}},
      {"capabilities", std::move(capabilities)},
  });
}

void Server::onShutdown(const proto::NoParams &,
                        proto::Callback<std::nullptr_t> reply) {
  shutdownRequested = true;
  cancelJobs("", std::nullopt, proto::ErrorCode::RequestCancelled,
             "the server is shutting down");
  reply(nullptr);
}

void Server::onInvalidMessage(const RawParams &params,
                              proto::Callback<json::Value> reply) {
  const json::Object *object = params.value.getAsObject();
  int64_t code = static_cast<int64_t>(proto::ErrorCode::InvalidRequest);
  std::string message = "invalid message";
  if (object) {
    code = object->getInteger("code").value_or(code);
    message = object->getString("message").value_or(message).str();
  }
  reply(makeError(static_cast<proto::ErrorCode>(code), message));
}

void Server::onCancelRequest(const CancelParams &params) {
  std::string key = getRequestKey(params.id);
  std::vector<std::shared_ptr<Job>> matching;
  {
    std::lock_guard<std::mutex> lock(stateMutex);
    for (auto &job : jobs)
      if (job->kind == Job::Kind::Preview && job->requestKey == key)
        matching.push_back(job);
  }
  for (auto &job : matching)
    job->cancel(proto::ErrorCode::RequestCancelled,
                "the request was cancelled");
}

//===----------------------------------------------------------------------===//
// Documents

void Server::updateFile(const proto::URIForFile &uri, std::string contents,
                        int64_t version) {
  // An edit supersedes the runs on the previous text.
  cancelJobs(
      uri.file(), std::nullopt, proto::ErrorCode::ContentModified,
      llvm::formatv("the document changed (version {0})", version).str());
  {
    std::lock_guard<std::mutex> lock(stateMutex);
    published[uri.file()].version = version;
  }

  std::vector<proto::Diagnostic> diagnostics;
  TextFileOptions fileOptions;
  fileOptions.allowUnregisteredDialects = options.allowUnregisteredDialects;
  fileOptions.threadPool = threadPool.get();
  auto start = std::chrono::steady_clock::now();
  // The parser recurses once per nesting level: it runs on a thread with a
  // stack far larger than the text it may parse needs (DocumentLimits.h).
  std::unique_ptr<TextFile> file;
  runOnParserStack([&] {
    file = std::make_unique<TextFile>(uri, std::move(contents), version,
                                      registry, fileOptions, diagnostics);
  });
  proto::Logger::info("{0} version {1}: parsed and verified in {2} ms",
                      uri.uri(), version,
                      std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
  {
    std::lock_guard<std::mutex> lock(stateMutex);
    PublishedState &state = published[uri.file()];
    state.parseDiagnostics = diagnostics;
    proto::PublishDiagnosticsParams params(uri, version);
    params.diagnostics = std::move(diagnostics);
    publishDiagnostics(params);
  }

  // The pipeline's own errors, once the text is valid and stays unchanged
  // for a moment.
  bool runPipeline = options.pipelineDiagnostics && file->isValid() &&
                     file->hasFullService() &&
                     mentionsExecutorDialects(file->getContents());
  JobInput jobInput;
  if (runPipeline) {
    jobInput.text = file->getContents();
    jobInput.ir = "none";
    jobInput.delayMs = options.pipelineDiagnosticsDelayMs;
    jobInput.timeoutMs = options.pipelineDiagnosticsTimeoutMs;
  }
  // The previous version is destroyed after the new diagnostics are out.
  std::unique_ptr<TextFile> &slot = files[uri.file()];
  std::swap(slot, file);
  file.reset();
  if (runPipeline)
    startJob(Job::Kind::Diagnostics, uri, version, std::move(jobInput));
}

void Server::onDidOpen(const proto::DidOpenTextDocumentParams &params) {
  updateFile(params.textDocument.uri, params.textDocument.text,
             params.textDocument.version);
}

void Server::onDidChange(const proto::DidChangeTextDocumentParams &params) {
  TextFile *file = getFile(params.textDocument.uri);
  if (!file) {
    proto::Logger::error("didChange for a document that is not open: {0}",
                         params.textDocument.uri.uri());
    return;
  }
  // A change without a range replaces the whole text: start from the last.
  llvm::ArrayRef<proto::TextDocumentContentChangeEvent> changes =
      params.contentChanges;
  std::string contents;
  size_t firstPartial = 0;
  for (size_t i = changes.size(); i > 0; --i) {
    if (!changes[i - 1].range) {
      contents = changes[i - 1].text;
      firstPartial = i;
      break;
    }
  }
  if (firstPartial == 0)
    contents = file->getContents();
  if (failed(proto::TextDocumentContentChangeEvent::applyTo(
          changes.drop_front(firstPartial), contents))) {
    proto::Logger::error("cannot apply the changes to {0}: a range is out of "
                         "the document",
                         params.textDocument.uri.uri());
    return;
  }
  updateFile(params.textDocument.uri, std::move(contents),
             params.textDocument.version);
}

void Server::onDidClose(const proto::DidCloseTextDocumentParams &params) {
  const proto::URIForFile &uri = params.textDocument.uri;
  auto it = files.find(uri.file());
  if (it == files.end())
    return;
  int64_t version = it->second->getVersion();
  files.erase(it);
  cancelJobs(uri.file(), std::nullopt, proto::ErrorCode::ContentModified,
             "the document was closed");
  std::lock_guard<std::mutex> lock(stateMutex);
  published.erase(uri.file());
  // Clear what the client shows for it.
  publishDiagnostics(proto::PublishDiagnosticsParams(uri, version));
}

//===----------------------------------------------------------------------===//
// Queries

void Server::onDefinition(const proto::TextDocumentPositionParams &params,
                          proto::Callback<std::vector<proto::Location>> reply) {
  std::vector<proto::Location> locations;
  if (TextFile *file = getFile(params.textDocument.uri)) {
    const ParsedChunk &chunk = file->getChunkFor(params.position);
    if (!findAliasDefinition(chunk, file->getURI(), params.position,
                             locations)) {
      file->getLocationsOf(params.position, locations);
      findSourceLocations(chunk, file->getURI(), params.position,
                          workspaceRoot, locations);
    }
  }
  reply(std::move(locations));
}

void Server::onReferences(const proto::ReferenceParams &params,
                          proto::Callback<std::vector<proto::Location>> reply) {
  std::vector<proto::Location> locations;
  if (TextFile *file = getFile(params.textDocument.uri))
    if (!findAliasReferences(file->getChunkFor(params.position),
                             file->getURI(), params.position,
                             params.context.includeDeclaration, locations))
      file->findReferencesOf(params.position,
                             params.context.includeDeclaration, locations);
  reply(std::move(locations));
}

void Server::onHover(const proto::TextDocumentPositionParams &params,
                     proto::Callback<std::optional<proto::Hover>> reply) {
  TextFile *file = getFile(params.textDocument.uri);
  if (!file)
    return reply(std::nullopt);
  if (std::optional<proto::Hover> hover =
          findAliasHover(file->getChunkFor(params.position), params.position))
    return reply(std::move(hover));
  reply(file->findHover(params.position));
}

void Server::onDocumentSymbol(const proto::DocumentSymbolParams &params,
                              proto::Callback<json::Value> reply) {
  std::vector<proto::DocumentSymbol> symbols;
  TextFile *file = getFile(params.textDocument.uri);
  if (file)
    file->findDocumentSymbols(symbols);
  if (!hierarchicalDocumentSymbols && file)
    return reply(flattenDocumentSymbols(symbols, file->getURI()));
  reply(json::Value(std::move(symbols)));
}

void Server::onCompletion(const proto::CompletionParams &params,
                          proto::Callback<proto::CompletionList> reply) {
  TextFile *file = getFile(params.textDocument.uri);
  reply(file ? file->getCodeCompletion(params.position)
             : proto::CompletionList());
}

void Server::onCodeLens(const DocumentParams &params,
                        proto::Callback<json::Value> reply) {
  json::Array lenses;
  if (TextFile *file = getFile(params.textDocument.uri)) {
    std::vector<PreviewLens> previews;
    file->getPreviewLenses(previews);
    for (const PreviewLens &lens : previews) {
      json::Object argument{{"uri", params.textDocument.uri.uri()},
                            {"chunk", static_cast<int64_t>(lens.chunk)},
                            {"pass", lens.pass}};
      auto index = defaultPassIndices.find(lens.pass);
      if (index != defaultPassIndices.end())
        argument["passIndex"] = static_cast<int64_t>(index->second);
      proto::Range range(proto::Position(lens.line, lens.startColumn),
                         proto::Position(lens.line, lens.endColumn));
      lenses.push_back(json::Object{
          {"range", range},
          {"command",
           json::Object{{"title", lens.title},
                        {"command", kShowPreviewCommand},
                        {"arguments", json::Array{std::move(argument)}}}},
      });
    }
  }
  reply(json::Value(std::move(lenses)));
}

namespace {
/// Why a pipeline run (`run`, plural `runs`) on `text` (`what`: "the
/// document", "the edited IR") is refused: past the full-service size, or
/// nested too deep for the worker's parser. `instead` says what to run on it.
std::optional<llvm::Error> checkPipelineInput(StringRef text, StringRef what,
                                              StringRef run, StringRef runs,
                                              StringRef instead) {
  if (text.size() > kFullServiceBytes)
    return makeError(
        proto::ErrorCode::RequestFailed,
        llvm::formatv("{0} is {1:f1} MiB: {2} stop at {3} MiB "
                      "(lsp/README.md, \"Limits\"); run {4} on it",
                      what, text.size() / double(1 << 20), runs,
                      kFullServiceBytes >> 20, instead));
  // The worker's parser would recurse past its stack.
  if (std::optional<size_t> deep = findExcessiveNesting(text))
    return makeError(proto::ErrorCode::RequestFailed,
                     llvm::formatv("{0} nests deeper than {1} levels (line "
                                   "{2}): no {3}",
                                   what, kMaxNestingDepth,
                                   text.take_front(*deep).count('\n') + 1,
                                   run));
  return std::nullopt;
}

/// The chunk and the pipeline of a preview or re-run request, checked
/// against `file`.
std::optional<llvm::Error> checkPreviewParams(const PipelinePreviewParams &params,
                                              const TextFile &file) {
  int64_t chunk = params.chunk.value_or(0);
  if (chunk < 0 || chunk >= file.getNumChunks())
    return makeError(
        proto::ErrorCode::InvalidParams,
        llvm::formatv("chunk {0} is out of range: the document has {1}", chunk,
                      file.getNumChunks()));
  if (params.pipeline && StringRef(*params.pipeline).trim().empty())
    return makeError(proto::ErrorCode::InvalidParams, "the pipeline is empty");
  return std::nullopt;
}

/// The job of a preview (or re-run) request on `text`.
JobInput previewJob(const PipelinePreviewParams &params, std::string text,
                    unsigned timeoutMs) {
  JobInput job;
  job.text = std::move(text);
  job.chunk = static_cast<int>(params.chunk.value_or(0));
  job.pipeline = params.pipeline.value_or("");
  job.ir = params.ir;
  job.timeoutMs = timeoutMs;
  return job;
}
} // namespace

void Server::onPipelinePreview(const PipelinePreviewParams &params,
                               proto::Callback<json::Value> reply) {
  TextFile *file = getFile(params.uri);
  if (!file)
    return reply(makeError(proto::ErrorCode::RequestFailed,
                           "no open document " + params.uri.uri()));
  if (auto refused =
          checkPipelineInput(file->getContents(), "the document",
                             "pipeline preview", "pipeline previews",
                             "executor-compile --save-ir-after-each"))
    return reply(std::move(*refused));
  if (auto invalid = checkPreviewParams(params, *file))
    return reply(std::move(*invalid));
  startJob(Job::Kind::Preview, params.uri, file->getVersion(),
           previewJob(params, file->getContents(), options.previewTimeoutMs),
           std::move(reply));
}

void Server::onRerunFrom(const RerunFromParams &params,
                         proto::Callback<json::Value> reply) {
  const PipelinePreviewParams &preview = params.preview;
  TextFile *file = getFile(preview.uri);
  if (!file)
    return reply(makeError(proto::ErrorCode::RequestFailed,
                           "no open document " + preview.uri.uri()));
  if (auto refused = checkPipelineInput(params.text, "the edited IR", "re-run",
                                        "re-runs", "executor-opt"))
    return reply(std::move(*refused));
  if (auto invalid = checkPreviewParams(preview, *file))
    return reply(std::move(*invalid));
  // A snapshot the pipeline does not have is the client's mistake; a
  // pipeline that does not parse is reported in the result, as by
  // executor/pipelinePreview.
  std::string pipelineText =
      preview.pipeline.value_or(catalyst::getDefaultPipelineText({"ws", ""}));
  if (auto steps = pipelineSteps(pipelineText)) {
    if (params.pass >= static_cast<int64_t>(steps->size()))
      return reply(makeError(
          proto::ErrorCode::InvalidParams,
          llvm::formatv("pass {0} is out of range: the pipeline has {1} "
                        "steps, numbered from 0 (-1 is the input)",
                        params.pass, steps->size())));
  } else {
    llvm::consumeError(steps.takeError());
  }
  JobInput jobInput =
      previewJob(preview, params.text, options.previewTimeoutMs);
  jobInput.rerunAfter = static_cast<int>(params.pass);
  jobInput.textUri = params.textUri.value_or("");
  jobInput.what = "re-run";
  startJob(Job::Kind::Preview, preview.uri, file->getVersion(),
           std::move(jobInput), std::move(reply));
}

//===----------------------------------------------------------------------===//
// Editing features (one file each in lsp/lib)

void Server::onCodeAction(const proto::CodeActionParams &params,
                          proto::Callback<json::Value> reply) {
  TextFile *file = getFile(params.textDocument.uri);
  auto wanted = [&](StringRef kind) {
    if (params.context.only.empty())
      return true;
    return llvm::any_of(params.context.only, [&](StringRef base) {
      return kind == base || kind.starts_with((base + ".").str());
    });
  };
  // (The JSON borrows the actions' URIs: they live until the reply is out.)
  std::vector<proto::CodeAction> actions;
  if (file && wanted(proto::CodeAction::kQuickFix))
    getCodeActions(*file, params.context.diagnostics, actions);
  // Refactorings where no quick fix is asked about (or when asked for).
  if (file && wanted(kTargetTripleActionKind) &&
      (!params.context.only.empty() || params.context.diagnostics.empty()))
    getTargetTripleActions(*file, params.range, actions);
  json::Array result;
  for (const proto::CodeAction &action : actions)
    result.push_back(toJSON(action));
  reply(json::Value(std::move(result)));
}

void Server::onPrepareRename(const proto::TextDocumentPositionParams &params,
                             proto::Callback<json::Value> reply) {
  TextFile *file = getFile(params.textDocument.uri);
  std::optional<RenameTarget> target =
      file ? prepareRename(*file, params.position) : std::nullopt;
  if (!target)
    return reply(nullptr);
  proto::Range range(proto::Position(target->line, target->startColumn),
                     proto::Position(target->line, target->endColumn));
  reply(json::Object{{"range", range}, {"placeholder", target->name}});
}

void Server::onRename(const RenameParams &params,
                      proto::Callback<json::Value> reply) {
  TextFile *file = getFile(params.textDocument.uri);
  if (!file)
    return reply(makeError(proto::ErrorCode::RequestFailed,
                           "no open document " +
                               params.textDocument.uri.uri()));
  auto edits = rename(*file, params.position, params.newName);
  if (!edits)
    return reply(edits.takeError());
  proto::WorkspaceEdit edit;
  edit.changes[params.textDocument.uri.uri().str()] = std::move(*edits);
  reply(toJSON(edit));
}

void Server::onSemanticTokens(const DocumentParams &params,
                              proto::Callback<json::Value> reply) {
  std::vector<uint32_t> data;
  if (TextFile *file = getFile(params.textDocument.uri))
    getSemanticTokens(*file, data);
  reply(json::Object{{"data", json::Array(data)}});
}

void Server::onSemanticTokensRange(const DocumentRangeParams &params,
                                   proto::Callback<json::Value> reply) {
  std::vector<uint32_t> data;
  if (TextFile *file = getFile(params.textDocument.uri)) {
    LineSpan span;
    span.firstLine = std::max<int64_t>(params.range.start.line, 0);
    span.lastLine = std::max<int64_t>(params.range.end.line, 0);
    getSemanticTokens(*file, data, span);
  }
  reply(json::Object{{"data", json::Array(data)}});
}

void Server::onFoldingRange(const DocumentParams &params,
                            proto::Callback<json::Value> reply) {
  json::Array result;
  if (TextFile *file = getFile(params.textDocument.uri)) {
    std::vector<FoldingRange> ranges;
    getFoldingRanges(*file, ranges);
    for (const FoldingRange &range : ranges)
      result.push_back(json::Object{
          {"startLine", static_cast<int64_t>(range.startLine)},
          {"endLine", static_cast<int64_t>(range.endLine)},
          {"kind", range.kind},
      });
  }
  reply(json::Value(std::move(result)));
}

void Server::onFormatting(const FormattingParams &params,
                          proto::Callback<json::Value> reply) {
  TextFile *file = getFile(params.textDocument.uri);
  if (!file)
    return reply(makeError(proto::ErrorCode::RequestFailed,
                           "no open document " +
                               params.textDocument.uri.uri()));
  FormatOptions formatOptions;
  formatOptions.dropComments =
      params.dropComments.value_or(formatDropsComments);
  // The parser and the printer recurse once per nesting level.
  std::optional<Expected<std::vector<proto::TextEdit>>> edits;
  runOnParserStack([&] { edits.emplace(formatDocument(*file, formatOptions)); });
  if (!*edits)
    return reply(edits->takeError());
  json::Array result;
  for (const proto::TextEdit &edit : **edits)
    result.push_back(toJSON(edit));
  reply(json::Value(std::move(result)));
}

void Server::onInlayHint(const proto::InlayHintsParams &params,
                         proto::Callback<json::Value> reply) {
  json::Array result;
  if (TextFile *file = getFile(params.textDocument.uri)) {
    std::vector<LaunchHint> hints;
    getLaunchHints(*file, std::max<int64_t>(params.range.start.line, 0),
                   std::max<int64_t>(params.range.end.line, 0), hints);
    for (const LaunchHint &hint : hints)
      result.push_back(json::Object{
          {"position", proto::Position(hint.line, hint.column)},
          {"label", hint.label},
          {"tooltip", hint.tooltip},
          {"paddingLeft", true},
      });
  }
  reply(json::Value(std::move(result)));
}

void Server::onConvertFromBytecode(const ConvertBytecodeParams &params,
                                   proto::Callback<json::Value> reply) {
  // Reading and printing recurse once per nesting level.
  std::optional<Expected<std::string>> text;
  runOnParserStack([&] {
    text.emplace(convertFromBytecode(params.uri.file(), registry,
                                     options.allowUnregisteredDialects));
  });
  if (!*text)
    return reply(text->takeError());
  reply(json::Object{{"output", std::move(**text)}});
}

void Server::onConvertToBytecode(const ConvertBytecodeParams &params,
                                 proto::Callback<json::Value> reply) {
  TextFile *file = getFile(params.uri);
  if (!file)
    return reply(makeError(proto::ErrorCode::RequestFailed,
                           "no open document " + params.uri.uri()));
  Expected<std::string> bytecode = convertToBytecode(*file);
  if (!bytecode)
    return reply(bytecode.takeError());
  reply(json::Object{{"output", std::move(*bytecode)}});
}

//===----------------------------------------------------------------------===//
// Jobs

std::shared_ptr<Job> Server::startJob(Job::Kind kind,
                                      const proto::URIForFile &uri,
                                      int64_t version, JobInput jobInput,
                                      proto::Callback<json::Value> reply) {
  reapJobs();
  auto job = std::make_shared<Job>(kind, uri, version);
  job->reply = std::move(reply);
  if (kind == Job::Kind::Preview) {
    const std::optional<json::Value> &id = input.getLastRequestId();
    job->requestKey = id ? getRequestKey(*id) : std::string();
  }
  {
    std::lock_guard<std::mutex> lock(stateMutex);
    jobs.push_back(job);
  }
  job->thread = std::thread([this, job, jobInput = std::move(jobInput)] {
    runJob(job, jobInput);
    job->finished = true;
  });
  return job;
}

void Server::reapJobs() {
  std::vector<std::shared_ptr<Job>> done;
  {
    std::lock_guard<std::mutex> lock(stateMutex);
    std::vector<std::shared_ptr<Job>> running;
    for (auto &job : jobs)
      (job->finished ? done : running).push_back(std::move(job));
    jobs = std::move(running);
  }
  for (auto &job : done)
    if (job->thread.joinable())
      job->thread.join();
}

void Server::cancelJobs(StringRef file, std::optional<Job::Kind> kind,
                        proto::ErrorCode code, const std::string &message) {
  std::vector<std::shared_ptr<Job>> matching;
  {
    std::lock_guard<std::mutex> lock(stateMutex);
    for (auto &job : jobs)
      if ((file.empty() || job->uri.file() == file) &&
          (!kind || job->kind == *kind))
        matching.push_back(job);
  }
  for (auto &job : matching)
    job->cancel(code, message);
}

void Server::runJob(const std::shared_ptr<Job> &job, const JobInput &jobInput) {
  // Diagnostics wait for the typing to pause.
  if (jobInput.delayMs) {
    std::unique_lock<std::mutex> lock(job->mutex);
    job->cv.wait_for(lock, std::chrono::milliseconds(jobInput.delayMs),
                     [&] { return job->cancelled; });
    if (job->cancelled)
      return;
  }
  WorkerOutcome outcome = runWorker(*job, jobInput);
  if (job->kind == Job::Kind::Preview)
    finishPreview(*job, std::move(outcome), jobInput);
  else
    finishDiagnostics(*job, std::move(outcome));
}

WorkerOutcome Server::runWorker(Job &job, const JobInput &jobInput) {
  WorkerOutcome outcome;
  outcome.status = WorkerOutcome::Status::Failed;
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("executor-lsp", dir)) {
    outcome.error = "cannot create a temporary directory: " + ec.message();
    return outcome;
  }
  auto path = [&](StringRef name) {
    llvm::SmallString<128> result(dir);
    llvm::sys::path::append(result, name);
    return std::string(result);
  };
  std::string inputPath = path("input.mlir"), outputPath = path("result.json"),
              stdoutPath = path("stdout.txt"), stderrPath = path("stderr.txt"),
              workspace = path("workspace");
  llvm::scope_exit cleanup(
      [&] { llvm::sys::fs::remove_directories(dir, /*IgnoreErrors=*/true); });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(inputPath, ec);
    if (ec) {
      outcome.error = "cannot write " + inputPath + ": " + ec.message();
      return outcome;
    }
    os << jobInput.text;
  }
  (void)llvm::sys::fs::create_directory(workspace);

  std::vector<std::string> args = {
      options.workerExecutable,
      "--pipeline-worker",
      "--worker-input=" + inputPath,
      "--worker-output=" + outputPath,
      "--worker-uri=" +
          (jobInput.textUri.empty() ? job.uri.uri().str() : jobInput.textUri),
      "--worker-workspace=" + workspace,
      "--worker-chunk=" + std::to_string(jobInput.chunk),
  };
  if (!jobInput.pipeline.empty())
    args.push_back("--worker-pipeline=" + jobInput.pipeline);
  args.push_back("--worker-ir=" + jobInput.ir);
  if (jobInput.rerunAfter)
    args.push_back("--worker-rerun-after=" +
                   std::to_string(*jobInput.rerunAfter));
  if (options.allowUnregisteredDialects)
    args.push_back("--allow-unregistered-dialect");
  std::vector<StringRef> argRefs(args.begin(), args.end());

  auto start = std::chrono::steady_clock::now();
  auto deadline = start + std::chrono::milliseconds(jobInput.timeoutMs);
  bool timedOut = false;
  int exitCode = 0;
  std::string waitError;
  {
    std::unique_lock<std::mutex> lock(job.mutex);
    if (job.cancelled) {
      outcome.status = WorkerOutcome::Status::Cancelled;
      return outcome;
    }
    std::string error;
    if (!job.process.start(options.workerExecutable, argRefs, stdoutPath,
                           stderrPath, error)) {
      outcome.error = error;
      return outcome;
    }
    while (!job.process.poll(exitCode, waitError)) {
      if (!timedOut && std::chrono::steady_clock::now() >= deadline) {
        timedOut = true;
        job.process.kill();
      }
      job.cv.wait_for(lock, std::chrono::milliseconds(2));
    }
    if (job.cancelled) {
      outcome.status = WorkerOutcome::Status::Cancelled;
      return outcome;
    }
  }
  if (timedOut) {
    outcome.status = WorkerOutcome::Status::TimedOut;
    return outcome;
  }
  if (exitCode != 0) {
    std::string message =
        waitError.empty() ? "exit code " + std::to_string(exitCode) : waitError;
    if (auto errors = llvm::MemoryBuffer::getFile(stderrPath)) {
      // What the child said, without the crash report's boilerplate (its
      // pretty stack trace names the pass when MLIR's crash recovery does).
      llvm::SmallVector<StringRef> lines;
      (*errors)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
      unsigned kept = 0;
      for (StringRef line : lines) {
        StringRef trimmed = line.trim();
        if (trimmed.starts_with("PLEASE submit") ||
            trimmed.starts_with("Stack dump") || trimmed.starts_with("#") ||
            trimmed.contains("Program arguments:"))
          continue;
        if (++kept > 8)
          break;
        message += "; " + trimmed.str();
      }
    }
    outcome.error = "the pipeline worker failed (" + message +
                    "); executor-opt --pass-pipeline='" +
                    (jobInput.pipeline.empty()
                         ? std::string("builtin.module(executor-default-"
                                       "pipeline{workspace=/tmp/ws})")
                         : jobInput.pipeline) +
                    "' reproduces it";
    if (jobInput.rerunAfter)
      outcome.error += llvm::formatv(" (its steps after snapshot {0}, on the "
                                     "edited text)",
                                     *jobInput.rerunAfter)
                           .str();
    return outcome;
  }
  // A preview of every pass of a huge program can be too much to send.
  constexpr uint64_t kMaxResultBytes = uint64_t(512) << 20;
  uint64_t size = 0;
  if (!llvm::sys::fs::file_size(outputPath, size) && size > kMaxResultBytes) {
    outcome.error = llvm::formatv("the result is {0} MB, more than a client "
                                  "should take: ask for less IR (\"ir\": "
                                  "\"none\" or snapshot indices)",
                                  size >> 20)
                        .str();
    return outcome;
  }
  auto result = llvm::MemoryBuffer::getFile(outputPath);
  if (!result) {
    outcome.error = "the pipeline worker wrote no result";
    return outcome;
  }
  Expected<json::Value> parsed = json::parse((*result)->getBuffer());
  if (!parsed) {
    outcome.error = "the pipeline worker wrote an invalid result: " +
                    llvm::toString(parsed.takeError());
    return outcome;
  }
  outcome.status = WorkerOutcome::Status::Finished;
  outcome.result = std::move(*parsed);
  proto::Logger::info("pipeline worker for {0} took {1} ms", job.uri.uri(),
                      std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
  return outcome;
}

void Server::finishPreview(Job &job, WorkerOutcome outcome,
                           const JobInput &jobInput) {
  switch (outcome.status) {
  case WorkerOutcome::Status::Cancelled:
    return; // cancel() answered.
  case WorkerOutcome::Status::TimedOut:
    return job.answer(
        makeError(proto::ErrorCode::RequestFailed,
                  llvm::formatv("the {0} timed out after {1} ms", jobInput.what,
                                jobInput.timeoutMs)));
  case WorkerOutcome::Status::Failed:
    return job.answer(
        makeError(proto::ErrorCode::RequestFailed, outcome.error));
  case WorkerOutcome::Status::Finished:
    break;
  }
  json::Object *root = outcome.result.getAsObject();
  json::Array *chunks = root ? root->getArray("chunks") : nullptr;
  if (!chunks || chunks->empty() || !chunks->front().getAsObject())
    return job.answer(makeError(proto::ErrorCode::RequestFailed,
                                "the pipeline worker returned no chunk"));
  json::Object result = std::move(*chunks->front().getAsObject());
  if (!jobInput.textUri.empty())
    result["textUri"] = jobInput.textUri;
  result["uri"] = job.uri.uri();
  result["version"] = job.version;
  job.answer(json::Value(std::move(result)));
}

void Server::finishDiagnostics(Job &job, WorkerOutcome outcome) {
  std::vector<proto::Diagnostic> diagnostics;
  switch (outcome.status) {
  case WorkerOutcome::Status::Cancelled:
    return;
  case WorkerOutcome::Status::TimedOut:
    proto::Logger::info("the pipeline run for {0} timed out", job.uri.uri());
    return;
  case WorkerOutcome::Status::Failed: {
    // A crash in a pass: say so where the user looks.
    proto::Diagnostic diag;
    diag.source = "executor-pipeline";
    diag.severity = proto::DiagnosticSeverity::Warning;
    diag.message = outcome.error;
    diagnostics.push_back(std::move(diag));
    break;
  }
  case WorkerOutcome::Status::Finished: {
    json::Object *root = outcome.result.getAsObject();
    json::Array *chunks = root ? root->getArray("chunks") : nullptr;
    if (!chunks)
      return;
    auto collect = [&](const json::Array *list) {
      if (!list)
        return;
      for (const json::Value &value : *list) {
        proto::Diagnostic diag;
        json::Path::Root path;
        if (!fromJSON(value, diag, path))
          continue;
        // Only what the passes say: the parser and the verifier already did.
        const json::Object *object = value.getAsObject();
        std::optional<StringRef> pass = object->getString("pass");
        if (!pass || pass->empty())
          continue;
        if (diag.severity != proto::DiagnosticSeverity::Error &&
            diag.severity != proto::DiagnosticSeverity::Warning)
          continue;
        diag.message = (*pass + ": " + diag.message).str();
        diag.source = "executor-pipeline";
        diag.category = pass->str();
        diagnostics.push_back(std::move(diag));
      }
    };
    for (json::Value &chunk : *chunks) {
      json::Object *object = chunk.getAsObject();
      if (!object)
        continue;
      collect(object->getArray("diagnostics"));
      if (json::Array *snapshots = object->getArray("snapshots"))
        for (json::Value &snapshot : *snapshots)
          if (json::Object *s = snapshot.getAsObject())
            collect(s->getArray("diagnostics"));
    }
    break;
  }
  }
  if (diagnostics.empty())
    return;
  std::lock_guard<std::mutex> lock(stateMutex);
  auto it = published.find(job.uri.file());
  if (it == published.end() || it->second.version != job.version ||
      job.isCancelled())
    return;
  proto::PublishDiagnosticsParams params(job.uri, job.version);
  params.diagnostics = it->second.parseDiagnostics;
  llvm::append_range(params.diagnostics, diagnostics);
  publishDiagnostics(params);
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

bool executor_studio::lsp::runServer(std::FILE *in, llvm::raw_ostream &out,
                                     const TransportOptions &transportOptions,
                                     const ServerOptions &options) {
  auto checkedInput = std::make_unique<CheckedInput>(
      in, transportOptions.delimitedInput ? proto::JSONStreamStyle::Delimited
                                          : proto::JSONStreamStyle::Standard);
  CheckedInput &inputRef = *checkedInput;
  proto::JSONTransport transport(std::move(checkedInput), out,
                                 transportOptions.prettyOutput);
  proto::MessageHandler handler(transport);
  // vscode-mlir opens a .mlirbc file as this scheme (mlir/convertFromBytecode).
  proto::URIForFile::registerSupportedScheme("mlir.bytecode-mlir");
  bool shutdown = false;
  {
    Server server(inputRef, options);
    handler.method("initialize", &server, &Server::onInitialize);
    handler.notification("initialized", &server, &Server::onInitialized);
    handler.method("shutdown", &server, &Server::onShutdown);
    handler.method(kInvalidMessageMethod, &server, &Server::onInvalidMessage);
    handler.notification("$/cancelRequest", &server, &Server::onCancelRequest);

    handler.notification("textDocument/didOpen", &server, &Server::onDidOpen);
    handler.notification("textDocument/didChange", &server,
                         &Server::onDidChange);
    handler.notification("textDocument/didClose", &server, &Server::onDidClose);

    handler.method("textDocument/definition", &server, &Server::onDefinition);
    handler.method("textDocument/references", &server, &Server::onReferences);
    handler.method("textDocument/hover", &server, &Server::onHover);
    handler.method("textDocument/documentSymbol", &server,
                   &Server::onDocumentSymbol);
    handler.method("textDocument/completion", &server, &Server::onCompletion);
    handler.method("textDocument/codeLens", &server, &Server::onCodeLens);
    handler.method("executor/pipelinePreview", &server,
                   &Server::onPipelinePreview);
    handler.method("executor/rerunFrom", &server, &Server::onRerunFrom);
    handler.method("textDocument/codeAction", &server, &Server::onCodeAction);
    handler.method("textDocument/prepareRename", &server,
                   &Server::onPrepareRename);
    handler.method("textDocument/rename", &server, &Server::onRename);
    handler.method("textDocument/semanticTokens/full", &server,
                   &Server::onSemanticTokens);
    handler.method("textDocument/semanticTokens/range", &server,
                   &Server::onSemanticTokensRange);
    handler.method("textDocument/foldingRange", &server,
                   &Server::onFoldingRange);
    handler.method("textDocument/formatting", &server, &Server::onFormatting);
    handler.method("textDocument/inlayHint", &server, &Server::onInlayHint);
    handler.method("mlir/convertFromBytecode", &server,
                   &Server::onConvertFromBytecode);
    handler.method("mlir/convertToBytecode", &server,
                   &Server::onConvertToBytecode);

    server.publishDiagnostics =
        handler.outgoingNotification<proto::PublishDiagnosticsParams>(
            "textDocument/publishDiagnostics");

    if (llvm::Error error = transport.run(handler)) {
      proto::Logger::error("transport: {0}", llvm::toString(std::move(error)));
    }
    shutdown = server.wasShutdownRequested();
  }
  return shutdown;
}
