//===- PipelineJobs.cpp - pipeline runs in worker processes -----*- C++ -*-===//
#include "ExecutorLsp/PipelineJobs.h"

#include "ExecutorLsp/DocumentLimits.h"
#include "ExecutorLsp/Launch.h"
#include "ExecutorLsp/OpHistory.h"
#include "ExecutorLsp/Protocol.h"
#include "ExecutorLsp/Server.h"
#include "ExecutorLsp/SplitFile.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorLsp/PipelineResults.h"

#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Transforms/Passes.h"
#include "ExecutorRuntime/ExecutorClient.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <thread>

using namespace executor_studio;
using namespace executor_studio::lsp;
namespace json = llvm::json;
using llvm::Expected;
using llvm::StringRef;
using Kind = PipelineJobs::Kind;

//===----------------------------------------------------------------------===//
// Job: one run of the pipeline in a worker process
//===----------------------------------------------------------------------===//

struct PipelineJobs::Job {
  Job(Kind kind, proto::URIForFile uri, int64_t version)
      : kind(kind), uri(std::move(uri)), version(version) {}

  /// Ends the job now (its worker is killed). A preview that has not answered
  /// yet answers with `code` and `message`.
  void cancel(proto::ErrorCode code, const std::string &message) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      cancelled = true; // the worker is killed within milliseconds
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
      rawReply = nullptr;
    }
    if (callback)
      callback(std::move(result));
    else if (!result)
      llvm::consumeError(result.takeError());
  }

  /// Answers the preview request with `result`, once: written directly
  /// when the job has a RawReply, else as JSON.
  void answer(const ChunkReply &result) {
    RawReply raw;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (reply && rawReply) {
        raw = std::move(rawReply);
        reply = nullptr; // answered through `raw`
      }
      rawReply = nullptr;
    }
    if (raw)
      return raw([&](llvm::raw_ostream &os) { result.write(os); });
    answer(json::Value(result.toObject()));
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
  proto::Callback<json::Value> reply;
  /// Writes the reply directly (MessageOutput.h), when the server can.
  RawReply rawReply;

  std::thread thread;
  std::atomic<bool> finished{false};
};

/// What a job runs.
struct PipelineJobs::Input {
  std::string text;
  int chunk = -1;
  std::string pipeline;
  /// Which IR the result holds: "changes", "none" or indices.
  std::string ir = "changes";
  unsigned delayMs = 0;
  unsigned timeoutMs = 0;
  /// A re-run: `text` is the edited IR after this snapshot.
  std::optional<int> rerunAfter;
  /// The diagnostics' document; the job's URI when empty.
  std::string textUri;
  /// What the request is called in errors.
  std::string what = "pipeline preview";
  /// A question about the recording (`executor/opHistory`,
  /// `executor/alignedSnapshots`; OpHistory.h) instead of the preview.
  std::optional<json::Object> query;
  /// The default pipeline with debug info in the kernels (a launch).
  bool debug = false;
  /// A launch: what to run once the pipeline wrote the objects.
  std::shared_ptr<const LaunchSpec> launch;
  /// A preview or re-run: record every text (kept in the recording cache,
  /// which `executor/stepText` answers from) whatever `ir` sends, in a
  /// workspace of the document's own that stays between runs (its path is
  /// in the texts: the same document records the same and hits the cache).
  bool keepTexts = false;
  /// The default pipeline's `executor-triple` (a launch on an executor of
  /// another architecture than its target's).
  std::string executorTriple;
};

namespace {
struct WorkerOutcome {
  enum class Status { Finished, Cancelled, TimedOut, Failed } status;
  json::Value result = nullptr;
  /// A preview's or re-run's chunk (Input::keepTexts, no query), instead
  /// of `result`.
  std::optional<ChunkReply> reply;
  std::string error;
};

//===----------------------------------------------------------------------===//
// Requests
//===----------------------------------------------------------------------===//

/// Why a pipeline run (`run`, plural `runs`) on `text` (`what`: "the
/// document", "the edited IR") is refused: past the full-service size, or
/// nested too deep for the worker's parser. `instead` says what to run on it.
std::optional<llvm::Error> checkPipelineInput(StringRef text, StringRef what,
                                              StringRef run, StringRef runs,
                                              StringRef instead) {
  if (text.size() > kFullServiceBytes)
    return makeError(proto::ErrorCode::RequestFailed,
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
std::optional<llvm::Error>
checkPreviewParams(const PipelinePreviewParams &params, const TextFile &file) {
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
PipelineJobs::Input previewJob(const PipelinePreviewParams &params,
                               std::string text, unsigned timeoutMs) {
  PipelineJobs::Input job;
  job.text = std::move(text);
  job.chunk = static_cast<int>(params.chunk.value_or(0));
  job.pipeline = params.pipeline.value_or("");
  job.ir = params.ir;
  job.timeoutMs = timeoutMs;
  job.keepTexts = true;
  return job;
}

//===----------------------------------------------------------------------===//
// The recording workers
//===----------------------------------------------------------------------===//

/// A temporary directory for the default pipeline's workspace (the
/// targets' objects), removed with it.
struct Workspace {
  llvm::SmallString<128> dir;
  /// A directory that outlives the run (useStable).
  bool stable = false;
  ~Workspace() {
    if (!dir.empty() && !stable)
      llvm::sys::fs::remove_directories(dir, /*IgnoreErrors=*/true);
  }
  /// `parent`/`name`, made when missing, kept after the run.
  bool useStable(StringRef parent, StringRef name, std::string &error) {
    dir = parent;
    llvm::sys::path::append(dir, name);
    stable = true;
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      error = "cannot create " + dir.str().str() + ": " + ec.message();
      dir.clear();
      return false;
    }
    return true;
  }
  bool create(std::string &error) {
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("executor-lsp", dir)) {
      dir.clear();
      error = "cannot create a temporary directory: " + ec.message();
      return false;
    }
    return true;
  }
};

/// Why a worker failed, with the executor-opt command that reproduces it.
std::string describeWorkerFailure(const std::string &why,
                                  const PipelineJobs::Input &jobInput) {
  std::string error = "the pipeline worker failed (" + why +
                      "); executor-opt --pass-pipeline='" +
                      (jobInput.pipeline.empty()
                           ? std::string("builtin.module(executor-default-"
                                         "pipeline{workspace=/tmp/ws})")
                           : jobInput.pipeline) +
                      "' reproduces it";
  if (jobInput.rerunAfter)
    error += llvm::formatv(" (its steps after snapshot {0}, on the "
                           "edited text)",
                           *jobInput.rerunAfter)
                 .str();
  return error;
}

/// Records the chunks `jobInput` asks for, each in a recording worker
/// (RecordingWorker.h), until they are done, the job is cancelled or its
/// time is up: {"chunks": [...]} as PipelineResults.h describes them.
/// `withWorkspace` sees the objects the pipeline wrote before they are
/// removed.
/// `stableRoot`: where the workspaces of previews and re-runs
/// (Input::keepTexts) are, one per document and chunk.
WorkerOutcome
runWorker(const ServerOptions &options, PipelineJobs::Job &job,
          const PipelineJobs::Input &jobInput, StringRef stableRoot,
          llvm::function_ref<void(StringRef workspace, const json::Value &result)>
              withWorkspace = {}) {
  using Status = WorkerOutcome::Status;
  WorkerOutcome outcome;
  outcome.status = Status::Failed;
  Workspace workspace;
  if (jobInput.keepTexts && !stableRoot.empty()) {
    std::string name =
        llvm::utohexstr(llvm::xxh3_64bits(job.uri.uri()), /*LowerCase=*/true) +
        "-" + std::to_string(jobInput.chunk);
    if (!workspace.useStable(stableRoot, name, outcome.error))
      return outcome;
  } else if (!workspace.create(outcome.error)) {
    return outcome;
  }

  PipelineResultOptions result;
  result.uri = jobInput.textUri.empty() ? job.uri.uri().str() : jobInput.textUri;
  result.bufferName = result.uri;
  if (auto parsed = proto::URIForFile::fromURI(result.uri))
    result.bufferName = parsed->file().str();
  else
    llvm::consumeError(parsed.takeError());
  catalyst::DefaultPipelineOptions defaults;
  defaults.workspace = std::string(workspace.dir);
  defaults.debug = jobInput.debug;
  defaults.executorTriple = jobInput.executorTriple;
  result.pipeline = jobInput.pipeline.empty()
                        ? catalyst::getDefaultPipelineText(defaults)
                        : jobInput.pipeline;
  result.setIR(jobInput.ir);
  result.rerunAfter = jobInput.rerunAfter;

  RecordRequest request;
  request.bufferName = result.bufferName;
  request.rerunAfter = jobInput.rerunAfter;
  request.options.pipeline = result.pipeline;
  request.options.recordIR = result.irMode != PipelineResultOptions::IRMode::None;
  // Every changed snapshot is sent in Changes mode: print each at once
  // rather than keep a copy of the module per step until then.
  request.options.deferText =
      result.irMode == PipelineResultOptions::IRMode::Selected;
  request.options.allowUnregisteredDialects = options.allowUnregisteredDialects;
  // Each target's own lowering, down to its assembly, inside
  // cross-compile-targets.
  request.options.recordNested = request.options.recordIR;
  if (result.irMode == PipelineResultOptions::IRMode::Selected)
    request.irSnapshots = result.irSnapshots;
  else if (result.irMode == PipelineResultOptions::IRMode::None)
    request.irSnapshots = std::vector<int>();
  if (jobInput.keepTexts && !jobInput.query) {
    // Every text, whichever the reply carries: the recording cache keeps
    // them for `executor/stepText`, and one recording (one cache entry)
    // answers every choice of texts.
    request.options.recordIR = true;
    request.options.deferText = false;
    request.options.recordNested = true;
    request.irSnapshots.reset();
  }
  if (jobInput.query) {
    // A question about the recording: every text, with locations for a
    // history (OpHistory.h).
    setQueryRecordOptions(*jobInput.query, request.options);
    request.irSnapshots.reset();
  }

  // A re-run records the edited IR (one program, whose lines the
  // diagnostics refer to); else the chunks asked for.
  struct Chunk {
    std::string text;
    unsigned lineOffset, index;
  };
  std::vector<Chunk> chunks;
  if (jobInput.rerunAfter) {
    chunks.push_back(
        {jobInput.text, 0, static_cast<unsigned>(std::max(jobInput.chunk, 0))});
  } else {
    llvm::SmallVector<FileChunk, 1> all = splitFileChunks(jobInput.text);
    for (auto [index, chunk] : llvm::enumerate(all)) {
      if (index >= kMaxAnalysedChunks) // as the server checks them
        break;
      if (jobInput.chunk >= 0 && index != static_cast<size_t>(jobInput.chunk))
        continue;
      if (jobInput.chunk < 0 && !mentionsExecutorDialects(chunk.text))
        continue;
      chunks.push_back({chunk.text.str(), chunk.lineOffset,
                        static_cast<unsigned>(index)});
    }
  }

  auto start = std::chrono::steady_clock::now();
  auto deadline = start + std::chrono::milliseconds(jobInput.timeoutMs);
  json::Array results;
  for (Chunk &chunk : chunks) {
    request.text = std::move(chunk.text);
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    WorkerRecording run =
        recordInWorker(request, options.workerExecutable,
                       std::max(left, std::chrono::milliseconds(0)),
                       [&] { return job.isCancelled(); });
    switch (run.status) {
    case WorkerRecording::Status::Cancelled:
      outcome.status = Status::Cancelled;
      return outcome;
    case WorkerRecording::Status::TimedOut:
      outcome.status = Status::TimedOut;
      return outcome;
    case WorkerRecording::Status::Failed:
      outcome.error = describeWorkerFailure(run.error, jobInput);
      return outcome;
    case WorkerRecording::Status::Finished:
      break;
    }
    // Two texts are aligned in a worker too: the parser runs there.
    auto align = [&](StringRef left, StringRef right) {
      auto rest = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      return alignInWorker(left, right, options.workerExecutable,
                           std::max(rest, std::chrono::milliseconds(0)),
                           [&] { return job.isCancelled(); });
    };
    if (jobInput.query)
      results.push_back(chunkQueryToJSON(*run.recording, *jobInput.query,
                                         request.text, chunk.lineOffset,
                                         chunk.index, result, align));
    else if (jobInput.keepTexts) {
      // A preview's or re-run's one chunk, its summaries serialized once: a
      // recording the cache keeps answers a repeated preview with the reply
      // made the first time.
      ChunkReply reply =
          run.cacheId.empty()
              ? chunkReply(*run.recording, request.text, chunk.lineOffset,
                           chunk.index, result)
              : chunkReply(run.recording, request.text, chunk.lineOffset,
                           chunk.index, result);
      if (!run.cacheId.empty())
        reply.head["recording"] = run.cacheId;
      outcome.reply = std::move(reply);
    } else {
      results.push_back(chunkResultToJSON(*run.recording, request.text,
                                          chunk.lineOffset, chunk.index,
                                          result));
    }
  }
  outcome.status = Status::Finished;
  outcome.result = json::Object{{"chunks", std::move(results)}};
  if (withWorkspace)
    withWorkspace(workspace.dir, outcome.result);
  proto::Logger::info("pipeline workers for {0} took {1} ms", job.uri.uri(),
                      std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
  return outcome;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

void finishPreview(PipelineJobs::Job &job, WorkerOutcome outcome,
                   const PipelineJobs::Input &jobInput) {
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
  auto addDocument = [&](json::Object &result) {
    if (!jobInput.textUri.empty())
      result["textUri"] = jobInput.textUri;
    result["uri"] = job.uri.uri();
    result["version"] = job.version;
  };
  if (outcome.reply) {
    addDocument(outcome.reply->head);
    return job.answer(*outcome.reply);
  }
  json::Object *root = outcome.result.getAsObject();
  json::Array *chunks = root ? root->getArray("chunks") : nullptr;
  if (!chunks || chunks->empty() || !chunks->front().getAsObject())
    return job.answer(makeError(proto::ErrorCode::RequestFailed,
                                "the pipeline worker returned no chunk"));
  json::Object result = std::move(*chunks->front().getAsObject());
  if (std::optional<StringRef> error = result.getString("error"))
    return job.answer(makeError(result.getBoolean("invalidParams").value_or(false)
                                    ? proto::ErrorCode::InvalidParams
                                    : proto::ErrorCode::RequestFailed,
                                *error));
  addDocument(result);
  job.answer(json::Value(std::move(result)));
}

/// The diagnostics of the passes (those with a "pass") in a worker's result;
/// a warning with the error when the worker failed.
std::vector<proto::Diagnostic>
collectPipelineDiagnostics(const PipelineJobs::Job &job,
                           WorkerOutcome outcome) {
  std::vector<proto::Diagnostic> diagnostics;
  switch (outcome.status) {
  case WorkerOutcome::Status::Cancelled:
    return diagnostics;
  case WorkerOutcome::Status::TimedOut:
    proto::Logger::info("the pipeline run for {0} timed out", job.uri.uri());
    return diagnostics;
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
      return diagnostics;
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
  return diagnostics;
}
} // namespace

//===----------------------------------------------------------------------===//
// PipelineJobs
//===----------------------------------------------------------------------===//

PipelineJobs::PipelineJobs(const ServerOptions &options, PublishFn publish)
    : options(options), publish(std::move(publish)) {}

PipelineJobs::~PipelineJobs() {
  cancel("", std::nullopt, proto::ErrorCode::RequestCancelled,
         "the server is exiting");
  std::vector<std::shared_ptr<Job>> remaining;
  {
    std::lock_guard<std::mutex> lock(mutex);
    remaining = std::move(jobs);
  }
  for (auto &job : remaining)
    if (job->thread.joinable())
      job->thread.join();
  if (!previewWorkspaces.empty())
    llvm::sys::fs::remove_directories(previewWorkspaces,
                                      /*IgnoreErrors=*/true);
}

std::string PipelineJobs::getPreviewWorkspaces() {
  std::lock_guard<std::mutex> lock(mutex);
  if (previewWorkspaces.empty()) {
    llvm::SmallString<128> dir;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("executor-lsp-previews", dir))
      proto::Logger::error("cannot create a directory for the previews' "
                           "workspaces ({0}): each preview records anew",
                           ec.message());
    else
      previewWorkspaces = std::string(dir);
  }
  return previewWorkspaces;
}

void PipelineJobs::startPreview(const TextFile &file,
                                const PipelinePreviewParams &params,
                                std::string requestKey,
                                proto::Callback<json::Value> reply,
                                RawReply rawReply) {
  if (auto refused = checkPipelineInput(
          file.getContents(), "the document", "pipeline preview",
          "pipeline previews", "executor-compile --save-ir-after-each"))
    return reply(std::move(*refused));
  if (auto invalid = checkPreviewParams(params, file))
    return reply(std::move(*invalid));
  start(Kind::Preview, params.uri, file.getVersion(),
        previewJob(params, file.getContents(), options.previewTimeoutMs),
        std::move(requestKey), std::move(reply), std::move(rawReply));
}

void PipelineJobs::startRerun(const TextFile &file,
                              const RerunFromParams &params,
                              std::string requestKey,
                              proto::Callback<json::Value> reply,
                              RawReply rawReply) {
  const PipelinePreviewParams &preview = params.preview;
  if (auto refused = checkPipelineInput(params.text, "the edited IR", "re-run",
                                        "re-runs", "executor-opt"))
    return reply(std::move(*refused));
  if (auto invalid = checkPreviewParams(preview, file))
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
  Input jobInput = previewJob(preview, params.text, options.previewTimeoutMs);
  jobInput.rerunAfter = static_cast<int>(params.pass);
  jobInput.textUri = params.textUri.value_or("");
  jobInput.what = "re-run";
  start(Kind::Preview, preview.uri, file.getVersion(), std::move(jobInput),
        std::move(requestKey), std::move(reply), std::move(rawReply));
}

void PipelineJobs::startQuery(const TextFile &file,
                              const PipelinePreviewParams &params,
                              json::Object query, llvm::StringRef what,
                              std::string requestKey,
                              proto::Callback<json::Value> reply) {
  if (auto refused = checkPipelineInput(
          file.getContents(), "the document", what, what,
          "executor-compile --save-ir-after-each"))
    return reply(std::move(*refused));
  if (auto invalid = checkPreviewParams(params, file))
    return reply(std::move(*invalid));
  Input jobInput =
      previewJob(params, file.getContents(), options.previewTimeoutMs);
  jobInput.query = std::move(query);
  jobInput.what = what.str();
  start(Kind::Preview, params.uri, file.getVersion(), std::move(jobInput),
        std::move(requestKey), std::move(reply));
}

void PipelineJobs::startLaunch(const TextFile &file, const LaunchSpec &spec,
                               std::string requestKey,
                               proto::Callback<json::Value> reply) {
  if (auto refused = checkPipelineInput(file.getContents(), "the document",
                                        "launch", "launches", "executor-compile -g"))
    return reply(std::move(*refused));
  Input jobInput;
  jobInput.text = file.getContents();
  jobInput.chunk = static_cast<int>(spec.chunk);
  jobInput.ir = "none";
  jobInput.timeoutMs = options.previewTimeoutMs;
  jobInput.debug = true;
  jobInput.what = "compile of " + spec.kernel;
  jobInput.launch = std::make_shared<const LaunchSpec>(spec);
  start(Kind::Launch, file.getURI(), file.getVersion(), std::move(jobInput),
        std::move(requestKey), std::move(reply));
}

void PipelineJobs::startDiagnostics(const TextFile &file) {
  // The pipeline's own errors, once the text is valid and stays unchanged
  // for a moment.
  if (!options.pipelineDiagnostics || !file.isValid() ||
      !file.hasFullService() || !mentionsExecutorDialects(file.getContents()))
    return;
  Input jobInput;
  jobInput.text = file.getContents();
  jobInput.ir = "none";
  jobInput.delayMs = options.pipelineDiagnosticsDelayMs;
  jobInput.timeoutMs = options.pipelineDiagnosticsTimeoutMs;
  start(Kind::Diagnostics, file.getURI(), file.getVersion(),
        std::move(jobInput), std::string(), nullptr);
}

void PipelineJobs::start(Kind kind, const proto::URIForFile &uri,
                         int64_t version, Input jobInput,
                         std::string requestKey,
                         proto::Callback<json::Value> reply,
                         RawReply rawReply) {
  reap();
  auto job = std::make_shared<Job>(kind, uri, version);
  job->reply = std::move(reply);
  job->rawReply = std::move(rawReply);
  job->requestKey = std::move(requestKey);
  {
    std::lock_guard<std::mutex> lock(mutex);
    jobs.push_back(job);
  }
  job->thread = std::thread([this, job, jobInput = std::move(jobInput)] {
    run(*job, jobInput);
    job->finished = true;
  });
}

void PipelineJobs::reap() {
  std::vector<std::shared_ptr<Job>> done;
  {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<std::shared_ptr<Job>> running;
    for (auto &job : jobs)
      (job->finished ? done : running).push_back(std::move(job));
    jobs = std::move(running);
  }
  for (auto &job : done)
    if (job->thread.joinable())
      job->thread.join();
}

void PipelineJobs::cancel(StringRef file, std::optional<Kind> kind,
                          proto::ErrorCode code, const std::string &message) {
  std::vector<std::shared_ptr<Job>> matching;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &job : jobs)
      if ((file.empty() || job->uri.file() == file) &&
          (!kind || job->kind == *kind))
        matching.push_back(job);
  }
  for (auto &job : matching)
    job->cancel(code, message);
}

void PipelineJobs::cancelRequest(StringRef key) {
  std::vector<std::shared_ptr<Job>> matching;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &job : jobs)
      if (job->kind != Kind::Diagnostics && job->requestKey == key)
        matching.push_back(job);
  }
  for (auto &job : matching)
    job->cancel(proto::ErrorCode::RequestCancelled,
                "the request was cancelled");
}

void PipelineJobs::run(Job &job, const Input &jobInput) {
  // Diagnostics wait for the typing to pause.
  if (jobInput.delayMs) {
    std::unique_lock<std::mutex> lock(job.mutex);
    job.cv.wait_for(lock, std::chrono::milliseconds(jobInput.delayMs),
                    [&] { return job.cancelled; });
    if (job.cancelled)
      return;
  }
  if (job.kind == Kind::Launch)
    return runLaunchJob(job, jobInput);
  WorkerOutcome outcome =
      runWorker(options, job, jobInput, getPreviewWorkspaces());
  if (job.kind == Kind::Preview)
    return finishPreview(job, std::move(outcome), jobInput);
  std::vector<proto::Diagnostic> diagnostics =
      collectPipelineDiagnostics(job, std::move(outcome));
  if (!diagnostics.empty())
    publish(
        job.kind, job.uri, job.version, [&] { return job.isCancelled(); },
        std::move(diagnostics));
}

void PipelineJobs::runLaunchJob(Job &job, const Input &launchInput) {
  // The session first: the executor's triple is what the target is
  // compiled for (its own, unless the executor runs another architecture).
  auto timeout = std::chrono::milliseconds(launchInput.timeoutMs);
  json::Value failedOpen = nullptr;
  std::unique_ptr<executor_studio::runtime::ExecutorClient> client =
      openLaunchSession(*launchInput.launch, timeout, failedOpen);
  if (!client)
    return job.answer(std::move(failedOpen));
  Input jobInput = launchInput;
  jobInput.executorTriple =
      retargetTriple(*jobInput.launch, client->executorTriple());
  // Compile with debug info, then launch from the workspace the worker
  // wrote (before it is removed).
  std::optional<json::Value> launched;
  std::vector<proto::Diagnostic> diagnostics;
  WorkerOutcome outcome =
      runWorker(options, job, jobInput, "",
                [&](StringRef workspace, const json::Value &result) {
        const json::Object *root = result.getAsObject();
        const json::Array *chunks = root ? root->getArray("chunks") : nullptr;
        const json::Object *chunk =
            chunks && !chunks->empty() ? chunks->front().getAsObject() : nullptr;
        if (!chunk || !chunk->getBoolean("succeeded").value_or(false))
          return;
        launched = runLaunch(*jobInput.launch, workspace, job.uri, *client,
                             jobInput.executorTriple, diagnostics);
      });
  if (outcome.status != WorkerOutcome::Status::Finished)
    return finishPreview(job, std::move(outcome), jobInput);
  if (!launched) {
    // The pipeline failed: its errors say why.
    std::vector<proto::Diagnostic> errors =
        collectPipelineDiagnostics(job, std::move(outcome));
    std::string message = "the pipeline failed on the document";
    if (!errors.empty())
      message += ": " + errors.front().message;
    return job.answer(makeError(proto::ErrorCode::RequestFailed, message));
  }
  // The diagnostics (none when it did not crash in the document) replace
  // the previous launch's.
  publish(
      job.kind, job.uri, job.version, [&] { return job.isCancelled(); },
      std::move(diagnostics));
  job.answer(std::move(*launched));
}
