//===- Server.cpp - executor-lsp-server -------------------------*- C++ -*-===//
//
// Routes the messages: each method's parameters (Protocol.h) to the feature
// that answers it (one file each in lsp/lib), the documents' lifetime to
// TextFile, and pipeline runs to PipelineJobs.
//
//===----------------------------------------------------------------------===//
#include "ExecutorLsp/Server.h"

#include "ExecutorLsp/Bytecode.h"
#include "ExecutorLsp/CheckedInput.h"
#include "ExecutorLsp/MessageOutput.h"
#include "ExecutorLsp/CodeActions.h"
#include "ExecutorLsp/CodeLens.h"
#include "ExecutorLsp/Completion.h"
#include "ExecutorLsp/DocumentLimits.h"
#include "ExecutorLsp/DocumentSymbols.h"
#include "ExecutorLsp/FoldingRanges.h"
#include "ExecutorLsp/Formatting.h"
#include "ExecutorLsp/Hover.h"
#include "ExecutorLsp/InlayHints.h"
#include "ExecutorLsp/Launch.h"
#include "ExecutorLsp/OpHistory.h"
#include "ExecutorLsp/PipelineJobs.h"
#include "ExecutorLsp/PipelineResults.h"
#include "ExecutorLsp/Protocol.h"
#include "ExecutorLsp/Rename.h"
#include "ExecutorLsp/SemanticTokens.h"
#include "ExecutorLsp/TargetTripleActions.h"
#include "ExecutorLsp/TextFile.h"
#include "ExecutorLsp/XRefs.h"

#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

using namespace executor_studio;
using namespace executor_studio::lsp;
namespace json = llvm::json;
using llvm::Expected;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Server
//===----------------------------------------------------------------------===//

namespace {
struct RouteBase {
  virtual ~RouteBase() = default;
};

/// A request handler that is a function: MessageHandler binds member
/// functions only.
template <typename Param, typename Result> class Route final : public RouteBase {
public:
  using Function =
      llvm::unique_function<void(const Param &, proto::Callback<Result>)>;
  explicit Route(Function function) : function(std::move(function)) {}
  void handle(const Param &params, proto::Callback<Result> reply) {
    function(params, std::move(reply));
  }

private:
  Function function;
};

class Server {
public:
  /// `output`: where a preview's reply is written directly (none: as
  /// JSON, through the transport).
  Server(CheckedInput &input, MessageOutput *output,
         const ServerOptions &options);
  ~Server();

  // Lifetime.
  void onInitialize(const RawParams &params,
                    proto::Callback<json::Value> reply);
  void onInitialized(const proto::NoParams &) {}
  void onShutdown(const proto::NoParams &,
                  proto::Callback<std::nullptr_t> reply);
  void onInvalidMessage(const RawParams &params,
                        proto::Callback<json::Value> reply);
  void onCancelRequest(const RawParams &params);

  // Documents.
  void onDidOpen(const proto::DidOpenTextDocumentParams &params);
  void onDidChange(const proto::DidChangeTextDocumentParams &params);
  void onDidClose(const proto::DidCloseTextDocumentParams &params);

  // Requests about one open document (bindDocument()).
  template <typename Param, typename Result = json::Value>
  using DocumentMethod = void(TextFile &file, const Param &params,
                              proto::Callback<Result> reply);
  using Locations = std::vector<proto::Location>;
  DocumentMethod<proto::TextDocumentPositionParams, Locations> onDefinition;
  DocumentMethod<proto::ReferenceParams, Locations> onReferences;
  DocumentMethod<proto::TextDocumentPositionParams, std::optional<proto::Hover>>
      onHover;
  DocumentMethod<proto::DocumentSymbolParams> onDocumentSymbol;
  DocumentMethod<proto::CompletionParams, proto::CompletionList> onCompletion;
  DocumentMethod<DocumentParams> onCodeLens, onSemanticTokens, onFoldingRange;
  DocumentMethod<PipelinePreviewParams> onPipelinePreview;
  DocumentMethod<RerunFromParams> onRerunFrom;
  DocumentMethod<OpHistoryParams> onOpHistory;
  DocumentMethod<AlignedSnapshotsParams> onAlignedSnapshots;
  DocumentMethod<SourceLinesParams> onSourceLines;
  DocumentMethod<GraphParams> onGraph;
  DocumentMethod<LaunchParams> onLaunch;
  DocumentMethod<proto::CodeActionParams> onCodeAction;
  DocumentMethod<proto::TextDocumentPositionParams> onPrepareRename;
  DocumentMethod<RenameParams> onRename;
  DocumentMethod<DocumentRangeParams> onSemanticTokensRange;
  DocumentMethod<FormattingParams> onFormatting;
  DocumentMethod<proto::InlayHintsParams> onInlayHint;
  DocumentMethod<ConvertBytecodeParams> onConvertToBytecode;
  // (Of a recording the cache keeps, whichever document it came from.)
  void onStepText(const StepTextParams &params,
                  proto::Callback<json::Value> reply);
  // (Of the whole server: what its caches hold.)
  void onCacheStatistics(const proto::NoParams &,
                         proto::Callback<json::Value> reply);
  // (Of a file on disk, open or not.)
  void onConvertFromBytecode(const ConvertBytecodeParams &params,
                             proto::Callback<json::Value> reply);

  template <typename Param, typename Result>
  using DocumentHandler = DocumentMethod<Param, Result> Server::*;
  /// Binds `method` to `handler`, called with the open document the request
  /// names (documentURI()); a request about a document that is not open
  /// fails, naming it.
  template <typename Param, typename Result>
  void bindDocument(proto::MessageHandler &messages, llvm::StringLiteral method,
                    DocumentHandler<Param, Result> handler) {
    bindDocument(messages, method, handler, std::optional<Result>());
  }
  /// The same; a request about a document that is not open is answered
  /// `closed` (an empty answer).
  template <typename Param, typename Result>
  void bindDocument(proto::MessageHandler &messages, llvm::StringLiteral method,
                    DocumentHandler<Param, Result> handler, Result closed) {
    bindDocument(messages, method, handler,
                 std::optional<Result>(std::move(closed)));
  }

  bool wasShutdownRequested() const { return shutdownRequested; }

  proto::OutgoingNotification<proto::PublishDiagnosticsParams>
      publishDiagnostics;

private:
  template <typename Param, typename Result>
  void bindDocument(proto::MessageHandler &messages, llvm::StringLiteral method,
                    DocumentHandler<Param, Result> handler,
                    std::optional<Result> closed);

  TextFile *getFile(const proto::URIForFile &uri) {
    auto it = files.find(uri.file());
    return it == files.end() ? nullptr : it->second.get();
  }
  void updateFile(const proto::URIForFile &uri, std::string contents,
                  int64_t version);

  /// Publishes the diagnostics of a job (the pipeline's or a launch's),
  /// after the parser's and with the other kind's.
  void publishJobDiagnostics(PipelineJobs::Kind kind,
                             const proto::URIForFile &uri, int64_t version,
                             llvm::function_ref<bool()> isCancelled,
                             std::vector<proto::Diagnostic> diagnostics);
  /// Starts `query` about `file`'s recording (OpHistory.h), for the request
  /// being handled.
  void startQuery(const TextFile &file, ChunkQuery query, llvm::StringRef what,
                  proto::Callback<json::Value> reply) {
    jobs->startQuery(file, query.preview, std::move(query.query), what,
                     getLastRequestKey(), std::move(reply));
  }
  /// The request id of the message being handled, as PipelineJobs keys it.
  std::string getLastRequestKey() const {
    const std::optional<json::Value> &id = input.getLastRequestId();
    return id ? getRequestKey(*id) : std::string();
  }

  /// A RawReply to the request being dispatched, when the output takes one.
  RawReply getRawReply() const {
    const std::optional<json::Value> &id = input.getLastRequestId();
    if (!output || !id)
      return nullptr;
    return output->replyTo(*id);
  }

  CheckedInput &input;
  MessageOutput *output;
  ServerOptions options;
  mlir::DialectRegistry registry;
  std::unique_ptr<llvm::ThreadPoolInterface> threadPool;
  /// Where a pass of the default pipeline first runs (its snapshot index),
  /// for the module passes before the first nested pipeline (CodeLens.h).
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
    /// The pipeline's, and a crashed launch's (Launch.h), of this version.
    std::vector<proto::Diagnostic> pipelineDiagnostics, launchDiagnostics;
  };
  llvm::StringMap<PublishedState> published;

  /// The pipeline runs (destroyed first: their threads publish through
  /// this server).
  std::unique_ptr<PipelineJobs> jobs;
  /// What bindDocument() binds the methods to.
  std::vector<std::unique_ptr<RouteBase>> routes;
};

/// The document a request is about.
template <typename Param>
const proto::URIForFile &documentURI(const Param &params) {
  return params.textDocument.uri;
}
const proto::URIForFile &documentURI(const PipelinePreviewParams &params) {
  return params.uri;
}
const proto::URIForFile &documentURI(const LaunchParams &params) {
  return params.uri;
}
const proto::URIForFile &documentURI(const ConvertBytecodeParams &params) {
  return params.uri;
}
const proto::URIForFile &documentURI(const RerunFromParams &params) {
  return params.preview.uri;
}
const proto::URIForFile &documentURI(const OpHistoryParams &params) {
  return params.preview.uri;
}
const proto::URIForFile &documentURI(const AlignedSnapshotsParams &params) {
  return params.preview.uri;
}
const proto::URIForFile &documentURI(const SourceLinesParams &params) {
  return params.preview.uri;
}
const proto::URIForFile &documentURI(const GraphParams &params) {
  return params.preview.uri;
}

template <typename Param, typename Result>
void Server::bindDocument(proto::MessageHandler &messages,
                          llvm::StringLiteral method,
                          DocumentHandler<Param, Result> handler,
                          std::optional<Result> closed) {
  auto route = std::make_unique<Route<Param, Result>>(
      [this, handler, closed = std::move(closed)](
          const Param &params, proto::Callback<Result> reply) {
        const proto::URIForFile &uri = documentURI(params);
        if (TextFile *file = getFile(uri))
          return (this->*handler)(*file, params, std::move(reply));
        if (closed)
          return reply(*closed);
        reply(makeError(proto::ErrorCode::RequestFailed,
                        "no open document " + uri.uri()));
      });
  messages.method(method, route.get(), &Route<Param, Result>::handle);
  routes.push_back(std::move(route));
}
} // namespace

Server::Server(CheckedInput &input, MessageOutput *output,
               const ServerOptions &options)
    : input(input), output(output), options(options),
      defaultPassIndices(getDefaultPassIndices()) {
  registerAllDialects(registry);
  if (options.verifyThreads != 1)
    threadPool = std::make_unique<llvm::DefaultThreadPool>(
        options.verifyThreads
            ? llvm::hardware_concurrency(options.verifyThreads)
            : llvm::hardware_concurrency());
  jobs = std::make_unique<PipelineJobs>(
      this->options,
      [this](PipelineJobs::Kind kind, const proto::URIForFile &uri,
             int64_t version, llvm::function_ref<bool()> isCancelled,
             std::vector<proto::Diagnostic> diagnostics) {
        publishJobDiagnostics(kind, uri, version, isCancelled,
                              std::move(diagnostics));
      });
}

Server::~Server() { jobs.reset(); }

void Server::publishJobDiagnostics(PipelineJobs::Kind kind,
                                   const proto::URIForFile &uri,
                                   int64_t version,
                                   llvm::function_ref<bool()> isCancelled,
                                   std::vector<proto::Diagnostic> diagnostics) {
  std::lock_guard<std::mutex> lock(stateMutex);
  auto it = published.find(uri.file());
  if (it == published.end() || it->second.version != version || isCancelled())
    return;
  PublishedState &state = it->second;
  (kind == PipelineJobs::Kind::Launch ? state.launchDiagnostics
                                      : state.pipelineDiagnostics) =
      std::move(diagnostics);
  proto::PublishDiagnosticsParams params(uri, version);
  params.diagnostics = state.parseDiagnostics;
  llvm::append_range(params.diagnostics, state.pipelineDiagnostics);
  llvm::append_range(params.diagnostics, state.launchDiagnostics);
  publishDiagnostics(params);
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
                                    {"stepTextProvider", true},
                                    {"previewCommand", kShowPreviewCommand},
                                    {"opHistoryProvider", true},
                                    {"alignedSnapshotsProvider", true},
                                    {"sourceLinesProvider", true},
                                    {"graphProvider", true},
                                    {"launchProvider", true},
                                    {"launchCommand", kLaunchCommand},
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
  jobs->cancel("", std::nullopt, proto::ErrorCode::RequestCancelled,
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

void Server::onCancelRequest(const RawParams &params) {
  const json::Object *object = params.value.getAsObject();
  const json::Value *id = object ? object->get("id") : nullptr;
  if (!id || (id->kind() != json::Value::String &&
              id->kind() != json::Value::Number))
    return proto::Logger::error("$/cancelRequest: expected the id of a "
                                "request (a string or a number)");
  jobs->cancelRequest(getRequestKey(*id));
}

//===----------------------------------------------------------------------===//
// Documents

void Server::updateFile(const proto::URIForFile &uri, std::string contents,
                        int64_t version) {
  // An edit supersedes the runs on the previous text.
  jobs->cancel(
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
    state.pipelineDiagnostics.clear();
    state.launchDiagnostics.clear();
    proto::PublishDiagnosticsParams params(uri, version);
    params.diagnostics = std::move(diagnostics);
    publishDiagnostics(params);
  }

  // The previous version is destroyed after the new diagnostics are out.
  std::unique_ptr<TextFile> &slot = files[uri.file()];
  std::swap(slot, file);
  file.reset();
  jobs->startDiagnostics(*slot);
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
  jobs->cancel(uri.file(), std::nullopt, proto::ErrorCode::ContentModified,
               "the document was closed");
  std::lock_guard<std::mutex> lock(stateMutex);
  published.erase(uri.file());
  // Clear what the client shows for it.
  publishDiagnostics(proto::PublishDiagnosticsParams(uri, version));
}

//===----------------------------------------------------------------------===//
// Navigation and documentation (Hover.h, XRefs.h, DocumentSymbols.h,
// Completion.h, CodeLens.h)

void Server::onDefinition(TextFile &file,
                          const proto::TextDocumentPositionParams &params,
                          proto::Callback<std::vector<proto::Location>> reply) {
  std::vector<proto::Location> locations;
  findDefinitions(file, params.position, workspaceRoot, locations);
  reply(std::move(locations));
}

void Server::onReferences(TextFile &file, const proto::ReferenceParams &params,
                          proto::Callback<std::vector<proto::Location>> reply) {
  std::vector<proto::Location> locations;
  findReferences(file, params.position, params.context.includeDeclaration,
                 locations);
  reply(std::move(locations));
}

void Server::onHover(TextFile &file,
                     const proto::TextDocumentPositionParams &params,
                     proto::Callback<std::optional<proto::Hover>> reply) {
  reply(findHover(file, params.position));
}

void Server::onDocumentSymbol(TextFile &file, const proto::DocumentSymbolParams &,
                              proto::Callback<json::Value> reply) {
  std::vector<proto::DocumentSymbol> symbols;
  findDocumentSymbols(file, symbols);
  if (!hierarchicalDocumentSymbols)
    return reply(flattenDocumentSymbols(symbols, file.getURI()));
  reply(json::Value(std::move(symbols)));
}

void Server::onCompletion(TextFile &file, const proto::CompletionParams &params,
                          proto::Callback<proto::CompletionList> reply) {
  reply(getCodeCompletion(file, params.position));
}

void Server::onCodeLens(TextFile &file, const DocumentParams &,
                        proto::Callback<json::Value> reply) {
  reply(getCodeLenses(file, defaultPassIndices));
}

//===----------------------------------------------------------------------===//
// Pipeline runs (PipelineJobs.h)

void Server::onPipelinePreview(TextFile &file,
                               const PipelinePreviewParams &params,
                               proto::Callback<json::Value> reply) {
  jobs->startPreview(file, params, getLastRequestKey(), std::move(reply),
                     getRawReply());
}

void Server::onRerunFrom(TextFile &file, const RerunFromParams &params,
                         proto::Callback<json::Value> reply) {
  jobs->startRerun(file, params, getLastRequestKey(), std::move(reply),
                   getRawReply());
}

void Server::onStepText(const StepTextParams &params,
                        proto::Callback<json::Value> reply) {
  reply(getStepText(params));
}

void Server::onCacheStatistics(const proto::NoParams &,
                               proto::Callback<json::Value> reply) {
  reply(cacheStatisticsToJSON());
}

void Server::onOpHistory(TextFile &file, const OpHistoryParams &params,
                         proto::Callback<json::Value> reply) {
  llvm::Expected<ChunkQuery> query = getOpHistoryQuery(file, params);
  if (!query)
    return reply(query.takeError());
  startQuery(file, std::move(*query), "op history", std::move(reply));
}

void Server::onAlignedSnapshots(TextFile &file,
                                const AlignedSnapshotsParams &params,
                                proto::Callback<json::Value> reply) {
  startQuery(file, getAlignedSnapshotsQuery(params), "structural diff",
             std::move(reply));
}

void Server::onSourceLines(TextFile &file, const SourceLinesParams &params,
                           proto::Callback<json::Value> reply) {
  startQuery(file, getSourceLinesQuery(params), "source lines",
             std::move(reply));
}

void Server::onGraph(TextFile &file, const GraphParams &params,
                     proto::Callback<json::Value> reply) {
  startQuery(file, getGraphQuery(file, params), "graph", std::move(reply));
}

void Server::onLaunch(TextFile &file, const LaunchParams &params,
                      proto::Callback<json::Value> reply) {
  llvm::Expected<LaunchSpec> spec = findLaunch(file, params);
  if (!spec)
    return reply(spec.takeError());
  jobs->startLaunch(file, *spec, getLastRequestKey(), std::move(reply));
}

//===----------------------------------------------------------------------===//
// Editing features (one file each in lsp/lib)

void Server::onCodeAction(TextFile &file, const proto::CodeActionParams &params,
                          proto::Callback<json::Value> reply) {
  // (The JSON borrows the actions' URIs: they live until the reply is out.)
  std::vector<proto::CodeAction> actions;
  getCodeActions(file, params, actions);
  json::Array result;
  for (const proto::CodeAction &action : actions)
    result.push_back(toJSON(action));
  reply(json::Value(std::move(result)));
}

void Server::onPrepareRename(TextFile &file,
                             const proto::TextDocumentPositionParams &params,
                             proto::Callback<json::Value> reply) {
  std::optional<RenameTarget> target = prepareRename(file, params.position);
  if (!target)
    return reply(nullptr);
  reply(toJSON(*target));
}

void Server::onRename(TextFile &file, const RenameParams &params,
                      proto::Callback<json::Value> reply) {
  auto edits = rename(file, params.position, params.newName);
  if (!edits)
    return reply(edits.takeError());
  proto::WorkspaceEdit edit;
  edit.changes[params.textDocument.uri.uri().str()] = std::move(*edits);
  reply(toJSON(edit));
}

void Server::onSemanticTokens(TextFile &file, const DocumentParams &,
                              proto::Callback<json::Value> reply) {
  std::vector<uint32_t> data;
  getSemanticTokens(file, data);
  reply(json::Object{{"data", json::Array(data)}});
}

void Server::onSemanticTokensRange(TextFile &file,
                                   const DocumentRangeParams &params,
                                   proto::Callback<json::Value> reply) {
  std::vector<uint32_t> data;
  LineSpan span;
  span.firstLine = std::max<int64_t>(params.range.start.line, 0);
  span.lastLine = std::max<int64_t>(params.range.end.line, 0);
  getSemanticTokens(file, data, span);
  reply(json::Object{{"data", json::Array(data)}});
}

void Server::onFoldingRange(TextFile &file, const DocumentParams &,
                            proto::Callback<json::Value> reply) {
  std::vector<FoldingRange> ranges;
  getFoldingRanges(file, ranges);
  reply(json::Value(json::Array(ranges)));
}

void Server::onFormatting(TextFile &file, const FormattingParams &params,
                          proto::Callback<json::Value> reply) {
  FormatOptions formatOptions;
  formatOptions.dropComments =
      params.dropComments.value_or(formatDropsComments);
  Expected<std::vector<proto::TextEdit>> edits =
      formatDocument(file, formatOptions);
  if (!edits)
    return reply(edits.takeError());
  json::Array result;
  for (const proto::TextEdit &edit : *edits)
    result.push_back(toJSON(edit));
  reply(json::Value(std::move(result)));
}

void Server::onInlayHint(TextFile &file, const proto::InlayHintsParams &params,
                         proto::Callback<json::Value> reply) {
  std::vector<LaunchHint> hints;
  getLaunchHints(file, std::max<int64_t>(params.range.start.line, 0),
                 std::max<int64_t>(params.range.end.line, 0), hints);
  reply(json::Value(json::Array(hints)));
}

void Server::onConvertFromBytecode(const ConvertBytecodeParams &params,
                                   proto::Callback<json::Value> reply) {
  Expected<std::string> text = convertFromBytecode(
      params.uri.file(), registry, options.allowUnregisteredDialects);
  if (!text)
    return reply(text.takeError());
  reply(json::Object{{"output", std::move(*text)}});
}

void Server::onConvertToBytecode(TextFile &file, const ConvertBytecodeParams &,
                                 proto::Callback<json::Value> reply) {
  Expected<std::string> bytecode = convertToBytecode(file);
  if (!bytecode)
    return reply(bytecode.takeError());
  reply(json::Object{{"output", std::move(*bytecode)}});
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
  // A preview's reply is written directly (its summaries kept serialized),
  // except when the output is pretty-printed.
  MessageOutput messageOutput(out);
  proto::JSONTransport transport(std::move(checkedInput), messageOutput,
                                 transportOptions.prettyOutput);
  proto::MessageHandler handler(transport);
  // vscode-mlir opens a .mlirbc file as this scheme (mlir/convertFromBytecode).
  proto::URIForFile::registerSupportedScheme("mlir.bytecode-mlir");
  bool shutdown = false;
  {
    Server server(inputRef,
                  transportOptions.prettyOutput ? nullptr : &messageOutput,
                  options);
    handler.method("initialize", &server, &Server::onInitialize);
    handler.notification("initialized", &server, &Server::onInitialized);
    handler.method("shutdown", &server, &Server::onShutdown);
    handler.method(kInvalidMessageMethod, &server, &Server::onInvalidMessage);
    handler.notification("$/cancelRequest", &server, &Server::onCancelRequest);

    handler.notification("textDocument/didOpen", &server, &Server::onDidOpen);
    handler.notification("textDocument/didChange", &server,
                         &Server::onDidChange);
    handler.notification("textDocument/didClose", &server, &Server::onDidClose);

    // Requests about a document that is not open: an empty answer for a
    // query, an error for what would change or run it.
    server.bindDocument(handler, "textDocument/definition",
                        &Server::onDefinition, Server::Locations());
    server.bindDocument(handler, "textDocument/references",
                        &Server::onReferences, Server::Locations());
    server.bindDocument(handler, "textDocument/hover", &Server::onHover,
                        std::optional<proto::Hover>());
    server.bindDocument(handler, "textDocument/documentSymbol",
                        &Server::onDocumentSymbol, json::Value(json::Array()));
    server.bindDocument(handler, "textDocument/completion",
                        &Server::onCompletion, proto::CompletionList());
    server.bindDocument(handler, "textDocument/codeLens", &Server::onCodeLens,
                        json::Value(json::Array()));
    server.bindDocument(handler, "textDocument/codeAction",
                        &Server::onCodeAction, json::Value(json::Array()));
    server.bindDocument(handler, "textDocument/prepareRename",
                        &Server::onPrepareRename, json::Value(nullptr));
    json::Value noTokens = json::Object{{"data", json::Array()}};
    server.bindDocument(handler, "textDocument/semanticTokens/full",
                        &Server::onSemanticTokens, noTokens);
    server.bindDocument(handler, "textDocument/semanticTokens/range",
                        &Server::onSemanticTokensRange, noTokens);
    server.bindDocument(handler, "textDocument/foldingRange",
                        &Server::onFoldingRange, json::Value(json::Array()));
    server.bindDocument(handler, "textDocument/inlayHint",
                        &Server::onInlayHint, json::Value(json::Array()));

    server.bindDocument(handler, "textDocument/rename", &Server::onRename);
    server.bindDocument(handler, "textDocument/formatting",
                        &Server::onFormatting);
    server.bindDocument(handler, "executor/pipelinePreview",
                        &Server::onPipelinePreview);
    server.bindDocument(handler, "executor/rerunFrom", &Server::onRerunFrom);
    server.bindDocument(handler, "executor/opHistory", &Server::onOpHistory);
    server.bindDocument(handler, "executor/alignedSnapshots",
                        &Server::onAlignedSnapshots);
    server.bindDocument(handler, "executor/sourceLines",
                        &Server::onSourceLines);
    server.bindDocument(handler, "executor/graph", &Server::onGraph);
    server.bindDocument(handler, "executor/launch", &Server::onLaunch);
    handler.method("executor/stepText", &server, &Server::onStepText);
    handler.method("executor/cacheStatistics", &server,
                   &Server::onCacheStatistics);
    server.bindDocument(handler, "mlir/convertToBytecode",
                        &Server::onConvertToBytecode);
    handler.method("mlir/convertFromBytecode", &server,
                   &Server::onConvertFromBytecode);

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
