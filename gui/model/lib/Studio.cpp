//===- Studio.cpp - everything executor-studio knows ----------------------===//
#include "StudioModel/Studio.h"
#include "StudioModel/Retarget.h"

#include "ExecutorStudio/Pipeline/PassOptionHelp.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/Registration.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"


#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

namespace executor_studio::gui {

namespace {
using Clock = std::chrono::steady_clock;

/// `workspace=` of a `cross-compile-targets{...}` pipeline element.
std::string workspaceOption(const std::string &options) {
  size_t at = options.find("workspace=");
  if (at == std::string::npos)
    return "";
  at += 10;
  size_t end = at;
  // MLIR prints a value that needs quoting in braces; people write quotes.
  if (end < options.size() &&
      (options[end] == '"' || options[end] == '\'' || options[end] == '{')) {
    char quote = options[end] == '{' ? '}' : options[end];
    size_t close = options.find(quote, end + 1);
    return options.substr(end + 1, close == std::string::npos
                                       ? std::string::npos
                                       : close - end - 1);
  }
  while (end < options.size() && options[end] != ' ' && options[end] != '}' &&
         options[end] != ',')
    ++end;
  return options.substr(at, end - at);
}

/// The workspace the recording's cross-compile-targets wrote its objects
/// to, or `otherwise` when none ran or it failed.
std::string compiledObjects(const Recording &recording, std::string otherwise) {
  for (const Snapshot &s : recording.snapshots)
    if (s.pass == "cross-compile-targets" && !s.failed)
      otherwise = workspaceOption(s.options);
  return otherwise;
}
} // namespace

//===----------------------------------------------------------------------===//
// The recording worker
//===----------------------------------------------------------------------===//

struct Studio::RecordedRun {
  uint64_t id = 0;
  Recording recording;
  std::vector<Kernel> kernels;
  std::string kernelNote;
  std::string pipeline, workspace;
  double milliseconds = 0;
  int rerunAfter = -2;
  std::shared_ptr<const std::string> text;
  /// A re-run whose text lists no kernels keeps the ones it has.
  bool keepKernels = false;
  /// Why the recording worker gave no recording (it crashed, timed out);
  /// the studio then keeps what it shows.
  std::string failure;
  /// The diff of the step the studio opens at with the one before it
  /// (its structural alignment and line diff), made on the recording
  /// thread (PipelineModel::addPreparedDiff).
  std::optional<PipelineModel::PreparedDiff> shownDiff;
};

struct Studio::Recorder {
  struct Job {
    uint64_t id = 0;
    std::shared_ptr<const std::string> text;
    std::string name, pipeline, workspace;
    bool defaultPipeline = true;
    bool locations = false;
    /// The kernels get debug info (setDebugBuild).
    bool debug = false;
    /// Only the recording's texts (Studio::locatedText): no kernels, no
    /// alignment.
    bool textsOnly = false;
    /// A re-run after this pass (-1: the input) of `text` as edited; -2:
    /// a recording of the document.
    int rerunAfter = -2;
    /// The objects of the recording the re-run continues.
    std::string previousObjects;
    /// The step the studio will show (its index; -2: the first that
    /// changed the IR, as a document just opened shows; -1: none), whose
    /// diff is made here, with the model's line options and structural
    /// diff as they were when the recording started.
    int shown = -1;
    LineOptions lineOptions;
    bool structural = true;
  };
  using Result = RecordedRun;

  std::mutex mutex;
  std::condition_variable wake, done;
  std::optional<Job> pending;
  std::optional<Result> result;
  bool running = false, stopping = false;
  uint64_t lastId = 0;
  /// The recording worker (RecordingWorker.h) and how long it may take.
  const std::string workerExecutable;
  const std::chrono::milliseconds timeout;
  std::thread thread;

  Recorder(std::string workerExecutable, std::chrono::milliseconds timeout)
      : workerExecutable(std::move(workerExecutable)), timeout(timeout),
        thread([this] { run(); }) {}
  ~Recorder() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_one();
    thread.join();
  }

  void submit(Job job) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      job.id = ++lastId;
      pending = std::move(job); // a newer job replaces one not started
    }
    wake.notify_one();
  }

  bool busy() {
    std::lock_guard<std::mutex> lock(mutex);
    return running || pending.has_value();
  }

  std::optional<Result> take() {
    std::lock_guard<std::mutex> lock(mutex);
    std::optional<Result> r = std::move(result);
    result.reset();
    return r;
  }

  bool wait(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex);
    return done.wait_for(lock, timeout, [&] {
      return !running && !pending.has_value();
    });
  }

  void run() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stopping || pending.has_value(); });
        if (stopping)
          return;
        job = std::move(*pending);
        pending.reset();
        running = true;
      }
      Result r = execute(job);
      if (r.failure == "cancelled")
        r = Result(); // a newer job replaced it
      {
        std::lock_guard<std::mutex> lock(mutex);
        // Only the newest recording matters.
        if (r.id == lastId)
          result = std::move(r);
        running = false;
      }
      done.notify_all();
    }
  }

  /// A newer job waits (it replaces the one running) or the studio closes.
  bool superseded() {
    std::lock_guard<std::mutex> lock(mutex);
    return stopping || pending.has_value();
  }

  /// Records in the worker; false with `r.failure` set when it gave no
  /// recording.
  bool record(const Job &job, const RecordOptions &options,
              std::optional<int> rerunAfter, Recording &recording, Result &r) {
    RecordRequest request;
    request.text = *job.text;
    request.bufferName = job.name;
    request.options = options;
    request.rerunAfter = rerunAfter;
    WorkerRecording run = recordInWorker(request, workerExecutable, timeout,
                                         [this] { return superseded(); });
    switch (run.status) {
    case WorkerRecording::Status::Finished:
      recording = *run.recording;
      return true;
    case WorkerRecording::Status::Cancelled:
      r.failure = "cancelled";
      return false;
    case WorkerRecording::Status::TimedOut:
    case WorkerRecording::Status::Failed:
      r.failure = "the pipeline worker failed (" + run.error + ")";
      return false;
    }
    return false;
  }

  /// Diffs step `shown` (Job::shown) of `r`'s recording with the one
  /// before it, as the diff view that shows it will (aligned, then the
  /// lines), so that the UI thread does neither in the frame that takes the
  /// recording in.
  static void diffShown(const Job &job, Result &r) {
    int shown = job.shown;
    const std::vector<Snapshot> &steps = r.recording.snapshots;
    if (shown == -2)
      for (size_t i = 0; i < steps.size() && shown == -2; ++i)
        if (steps[i].changed)
          shown = static_cast<int>(i);
    if (shown < 0 || shown >= static_cast<int>(steps.size()))
      return;
    std::shared_ptr<const std::string> left =
        shown == 0 ? r.recording.inputIR : steps[shown - 1].ir;
    std::shared_ptr<const std::string> right = steps[shown].ir;
    if (!left || !right || left == right)
      return;
    SnapshotKind leftKind = shown == 0 ? SnapshotKind::MLIR : steps[shown - 1].kind;
    bool structural = job.structural && leftKind == SnapshotKind::MLIR &&
                      steps[shown].kind == SnapshotKind::MLIR;
    r.shownDiff = PipelineModel::prepareDiff(left, right, structural, job.lineOptions);
  }

  Result execute(const Job &job) {
    Result r;
    r.id = job.id;
    r.pipeline = job.pipeline;
    Clock::time_point start = Clock::now();
    std::error_code ec;
    std::filesystem::create_directories(job.workspace, ec);
    RecordOptions options;
    options.pipeline = job.pipeline;
    options.printDebugInfo = job.locations;
    // A debug build's kernels name their arguments as the .mlir does.
    options.keepArgumentNames = job.debug;
    // Each target's own lowering, down to its assembly, under
    // cross-compile-targets in the pass list.
    options.recordNested = true;
    // Every changed snapshot is shown: the worker prints each at once.
    options.deferText = false;
    r.rerunAfter = job.rerunAfter;
    r.text = job.text;
    if (job.rerunAfter >= -1) {
      if (!record(job, options, job.rerunAfter, r.recording, r))
        return r;
      r.milliseconds =
          std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (!r.recording.inputIR) {
        r.keepKernels = true;
        return r;
      }
      // The objects: those the re-run compiled, else the ones it continues.
      std::string objects = compiledObjects(r.recording, job.previousObjects);
      r.workspace = objects;
      std::string error;
      if (!findKernels(*job.text, job.name, objects, r.kernels, error) ||
          r.kernels.empty()) {
        // Past the launches (lowered to calls): the kernels stay as listed.
        r.kernels.clear();
        r.keepKernels = true;
      }
      return r;
    }
    if (!record(job, options, std::nullopt, r.recording, r) || job.textsOnly)
      return r;
    r.milliseconds =
        std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    diffShown(job, r);

    // Where the targets' objects are: the workspace cross-compile-targets
    // wrote to, or a default-pipeline build when this pipeline has none.
    std::string objects = compiledObjects(r.recording, "");
    if (objects.empty() && job.defaultPipeline)
      objects = job.workspace;
    std::string error;
    if (!findKernels(*job.text, job.name, objects.empty() ? job.workspace : objects,
                     r.kernels, error)) {
      r.kernelNote = "no kernels: the document does not parse (" + error + ")";
      r.workspace = job.workspace;
      return r;
    }
    if (objects.empty() && !r.kernels.empty()) {
      // The pipeline does not compile the targets: build the objects with
      // the default pipeline, recording no IR.
      RecordOptions build;
      build.pipeline = Studio::defaultPipeline(job.workspace, job.debug);
      build.recordIR = false;
      build.keepArgumentNames = job.debug;
      Recording built;
      Result buildRun;
      bool finished = record(job, build, std::nullopt, built, buildRun);
      objects = job.workspace;
      r.kernelNote = finished && built.succeeded
                         ? "objects built with the default pipeline (this "
                           "pipeline does not run cross-compile-targets)"
                         : "the default pipeline failed to build the objects";
    }
    r.workspace = objects;
    return r;
  }
};

//===----------------------------------------------------------------------===//
// Studio
//===----------------------------------------------------------------------===//

Studio::Studio(StudioOptions options)
    : opts(std::move(options)), recovery(opts.recoveryDir),
      exec(std::make_unique<ExecutorModel>(opts.executor)),
      recorder(std::make_unique<Recorder>(
          opts.workerExecutable.empty()
              ? llvm::sys::fs::getMainExecutable(nullptr, nullptr)
              : opts.workerExecutable,
          opts.recordTimeout)),
      locator(std::make_unique<Recorder>(recorder->workerExecutable, opts.recordTimeout)),
      lastDiskCheck(Clock::now()) {
  // The recordings are made in a worker process, but the pipeline's steps
  // are read here too (remainingPipeline): its passes must be registered.
  static std::once_flag registered;
  std::call_once(registered, [] { registerAllPasses(); });
  root = opts.workspaceRoot;
  if (root.empty()) {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp && *tmp ? tmp : "/tmp") + "/executor-studio-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()))
      root = buffer.data();
    else
      root = pattern.substr(0, pattern.size() - 7) + std::to_string(::getpid());
    ownsRoot = true;
  }
}

Studio::~Studio() {
  recorder.reset();
  locator.reset();
  exec.reset(); // closes the session and stops the local executor first
  if (ownsRoot) {
    std::error_code ec;
    std::filesystem::remove_all(root, ec);
  }
}

std::string Studio::defaultPipeline(const std::string &workspace, bool debug) {
  catalyst::DefaultPipelineOptions options;
  options.workspace = workspace;
  options.debug = debug;
  return catalyst::getDefaultPipelineText(options);
}

namespace {
/// `pipeline` (the user's) with debug info for its targets.
std::string withDebug(const std::string &pipeline) {
  return executor_studio::addMissingPassOption(
      pipeline, {"executor-default-pipeline", "cross-compile-targets"}, "debug",
      "true");
}
} // namespace

void Studio::setStatus(std::string text, bool error) {
  statusText = std::move(text);
  statusError = error;
}

bool Studio::start(const StudioStart &start) {
  // The options first: the document is recorded once, with them.
  setDebugBuild(start.debugBuild);
  setPrintLocations(start.printLocations);
  setPipelineText(start.pipeline);
  return start.file.empty() || open(start.file);
}

bool Studio::open(const std::string &path) {
  std::string error;
  if (!doc.open(path, error)) {
    setStatus(error, true);
    return false;
  }
  stepper.setSource(doc.shared(), doc.name());
  setStatus("opened " + path, false);
  freshlyOpened = true;
  startRecording();
  findRecoveredEdit();
  return true;
}

void Studio::openText(std::string name, std::string text) {
  doc.setText(std::move(name), std::move(text));
  stepper.setSource(doc.shared(), doc.name());
  freshlyOpened = true;
  startRecording();
  findRecoveredEdit();
}

std::string Studio::recoveryKey() const {
  if (!doc.hasFile())
    return doc.name();
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(doc.path(), ec);
  return ec ? doc.path() : absolute.lexically_normal().string();
}

void Studio::findRecoveredEdit() {
  std::string error;
  recovered = recovery.load(recoveryKey(), error);
  if (!error.empty())
    setStatus("no edit recovered: " + error, true);
}

bool Studio::restoreRecoveredEdit() {
  if (!recovered)
    return false;
  if (lastPipeline.empty()) {
    setStatus("the kept edit is restored once the document is recorded", true);
    return false;
  }
  if (recovered->pass >= static_cast<int>(stepper.passCount()) ||
      stepper.isNested(recovered->pass)) {
    setStatus("the kept edit is of pass " + std::to_string(recovered->pass + 1) +
                  ", which this recording does not have",
              true);
    return false;
  }
  RecoveredEdit edit = std::move(*recovered);
  recovered.reset();
  rerunFrom(edit.pass, std::move(edit.text));
  setStatus("restoring the edit of pass " + std::to_string(edit.pass + 1) + " kept at " +
                edit.savedAt + "...",
            false);
  return true;
}

void Studio::discardRecoveredEdit() {
  if (!recovered)
    return;
  recovered.reset();
  recovery.remove(recoveryKey());
  setStatus("discarded the kept edit", false);
}

bool Studio::reload() {
  std::string error;
  if (!doc.reload(error)) {
    setStatus(error, true);
    return false;
  }
  stepper.setSource(doc.shared(), doc.name());
  setStatus("reloaded " + doc.path(), false);
  startRecording();
  return true;
}

void Studio::setPipelineText(std::string text) {
  // Surrounding blanks are no pipeline.
  size_t b = text.find_first_not_of(" \t\n");
  size_t e = text.find_last_not_of(" \t\n");
  customPipeline = b == std::string::npos ? "" : text.substr(b, e - b + 1);
  if (doc.isOpen())
    startRecording();
}

void Studio::setRecordingOption(bool &option, bool on) {
  if (on == option)
    return;
  option = on;
  if (doc.isOpen())
    startRecording();
}

void Studio::setPrintLocations(bool on) { setRecordingOption(withLocations, on); }

void Studio::setDebugBuild(bool on) { setRecordingOption(withDebugInfo, on); }

void Studio::record() {
  if (doc.isOpen())
    startRecording();
}

void Studio::submitDocumentRecording(Recorder &to, std::string workspace, bool locations,
                                     bool textsOnly) {
  Recorder::Job job;
  job.text = doc.shared();
  job.name = doc.name();
  job.workspace = std::move(workspace);
  job.defaultPipeline = customPipeline.empty();
  job.locations = locations;
  job.debug = withDebugInfo;
  job.textsOnly = textsOnly;
  job.pipeline = job.defaultPipeline ? defaultPipeline(job.workspace, withDebugInfo)
                 : withDebugInfo    ? withDebug(customPipeline)
                                    : customPipeline;
  // The step it will open at (applyDocumentRun), aligned with the
  // recording; a target's own step is aligned when shown.
  job.shown = textsOnly ? -1
              : freshlyOpened ? -2
              : stepper.selected() < static_cast<int>(stepper.passCount())
                  ? stepper.selected()
                  : -1;
  job.lineOptions = stepper.lineOptions();
  job.structural = stepper.structural();
  to.submit(std::move(job));
}

std::shared_ptr<const std::string> Studio::locatedText(int position) {
  if (withLocations || !stepper.hasRecording())
    return stepper.irAt(position);
  if (hasEdit()) {
    locatedError = "an edit is shown: tick \"print loc\" to record it with locations";
    return nullptr;
  }
  if (locatedFor != recordingGen) {
    // Once per recording, the first time it is asked for.
    locatedFor = recordingGen;
    located.reset();
    locatedError.clear();
    submitDocumentRecording(*locator, root + "/l" + std::to_string(++nextWorkspace),
                            /*locations=*/true, /*textsOnly=*/true);
    return nullptr;
  }
  if (!located) {
    std::optional<RecordedRun> run = locator->take();
    if (!run)
      return nullptr;
    if (!run->failure.empty()) {
      locatedError = "the recording with locations failed: " + run->failure;
      return nullptr;
    }
    located = std::make_unique<PipelineModel>();
    located->setRecording(std::move(run->recording));
  }
  // The same pipeline gives the same steps; else nothing is linked.
  if (located->entryCount() != stepper.entryCount()) {
    locatedError = "the recording with locations has other steps than the one shown";
    return nullptr;
  }
  return located->irAt(position);
}

bool Studio::waitForLocated(std::chrono::milliseconds timeout) {
  return locator->wait(timeout);
}

bool Studio::locating() const {
  return !withLocations && locatedFor == recordingGen && !located && locatedError.empty();
}

void Studio::startRecording() {
  submitDocumentRecording(*recorder, root + "/r" + std::to_string(++nextWorkspace),
                          withLocations, /*textsOnly=*/false);
  setStatus("recording " + doc.name() + "...", false);
}

namespace {
/// `text` with every `from` replaced by `to`.
std::string replaceAll(std::string text, const std::string &from, const std::string &to) {
  if (from.empty())
    return text;
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}
} // namespace

void Studio::rerunFrom(int pass, std::string text) {
  if (!doc.isOpen() || lastPipeline.empty()) {
    setStatus("nothing to re-run: record the document first", true);
    return;
  }
  if (stepper.isNested(pass)) {
    setStatus("a target's own step is not re-run on its own: edit the step "
              "that contains it (" +
                  stepper.positionName(stepper.parentOf(pass)) + ")",
              true);
    return;
  }
  if (pass < -1 || pass >= static_cast<int>(stepper.passCount())) {
    setStatus("no pass " + std::to_string(pass + 1) + " to re-run after", true);
    return;
  }
  // Kept on disk before the worker sees it: nothing the user typed is lost
  // to a crash (Recovery.h).
  std::string keepError;
  recovered.reset();
  recovery.save({recoveryKey(), pass, text, customPipeline, ""}, keepError);
  Recorder::Job job;
  job.text = std::make_shared<const std::string>(std::move(text));
  job.name = doc.name() + " (edited after pass " + std::to_string(pass + 1) + ")";
  job.workspace = root + "/r" + std::to_string(++nextWorkspace);
  job.locations = withLocations;
  job.debug = withDebugInfo;
  job.rerunAfter = pass;
  job.previousObjects = currentWorkspace;
  // Objects of the re-run go to a workspace of their own: the executor
  // keeps the objects it loaded by path, and would run the old ones. A
  // custom pipeline names its workspace quoted or not.
  std::string pipeline = usesDefaultPipeline()
                             ? defaultPipeline(job.workspace, withDebugInfo)
                             : lastPipeline;
  if (!usesDefaultPipeline())
    for (const Snapshot &s : stepper.recording().snapshots)
      if (s.pass == "cross-compile-targets") {
        std::string old = workspaceOption(s.options);
        if (old.empty())
          continue;
        for (std::string quoted : {old, "\"" + old + "\"", "'" + old + "'",
                                   "{" + old + "}"})
          pipeline = replaceAll(pipeline, "workspace=" + quoted,
                                "workspace=" +
                                    catalyst::quotePassOption(job.workspace));
      }
  job.pipeline = pipeline;
  std::error_code ec;
  std::filesystem::create_directories(job.workspace, ec);
  recorder->submit(std::move(job));
  setStatus("re-running the passes after pass " + std::to_string(pass + 1) + "..." +
                (keepError.empty() ? "" : " (the edit is not kept: " + keepError + ")"),
            !keepError.empty());
}

std::string Studio::otherTripleNote(size_t kernel) const {
  if (kernel >= kernelList.size())
    return "";
  return gui::otherTripleNote(kernelList[kernel], exec->executorTriple());
}

bool Studio::rerunForExecutorTriple(size_t kernel) {
  const std::string &triple = exec->executorTriple();
  if (kernel >= kernelList.size() || triple.empty()) {
    setStatus(triple.empty() ? "connect to an executor first: its triple is "
                               "what the target is compiled for"
                             : "no kernel " + std::to_string(kernel),
              true);
    return false;
  }
  // On top of an edit of the input, if there is one.
  const std::string &source =
      editApplied && editPass == -1 ? editText : doc.text();
  std::string text, error;
  if (!setTargetTriple(source, doc.name(), kernelList[kernel].module, triple,
                       text, error)) {
    setStatus("cannot set the triple of @" + kernelList[kernel].module + ": " +
                  error,
              true);
    return false;
  }
  rerunFrom(-1, std::move(text));
  setStatus("re-running with @" + kernelList[kernel].module + " compiled for " +
                triple + "...",
            false);
  return true;
}

bool Studio::revertEdit() {
  if (!original)
    return false;
  int keep = stepper.selected();
  stepper.setRecording(std::move(original->recording));
  stepper.select(keep);
  kernelList = std::move(original->kernels);
  kernelNote = std::move(original->kernelNote);
  currentWorkspace = std::move(original->workspace);
  lastPipeline = std::move(original->pipeline);
  if (kernelIndex >= static_cast<int>(kernelList.size()))
    kernelIndex = kernelList.empty() ? -1 : 0;
  dropEdit();
  ++recordingGen;
  recovery.remove(recoveryKey());
  setStatus("reverted the edit: the recording of " + doc.name(), false);
  return true;
}

std::string Studio::editRemainingPipeline() const {
  if (!editApplied)
    return "";
  auto rest = remainingPipeline(editPipeline, editPass);
  if (!rest) {
    llvm::consumeError(rest.takeError());
    return "";
  }
  return *rest;
}

std::string Studio::reproducerText() const {
  if (!editApplied)
    return "";
  std::string where = editPass < 0 ? std::string("the input")
                                   : "pass " + std::to_string(editPass + 1) + " (" +
                                         stepper.pass(editPass).pass + ")";
  std::string header = "// Edited in executor-studio: the IR after " + where + " of " +
                       doc.name() + ".\n// The rest of the run:\n//   executor-opt FILE "
                       "--pass-pipeline='" +
                       editRemainingPipeline() + "'\n";
  return header + editText;
}

bool Studio::saveEdit(const std::string &path, std::string &error) {
  if (!editApplied) {
    error = "no edit to save: edit a pass and re-run first";
    return false;
  }
  std::ofstream out(path, std::ios::trunc);
  if (!out) {
    error = "cannot write " + path;
    return false;
  }
  out << reproducerText();
  if (!out) {
    error = "cannot write " + path;
    return false;
  }
  setStatus("saved the edit as " + path, false);
  return true;
}

bool Studio::recordingInProgress() const { return recorder->busy(); }

bool Studio::waitForRecording(std::chrono::milliseconds timeout) {
  bool idle = recorder->wait(timeout);
  applyRecording();
  return idle;
}

void Studio::applyRecording() {
  std::optional<RecordedRun> run = recorder->take();
  if (!run)
    return;
  if (!run->failure.empty()) {
    applyFailure(*run);
    return launchRetargeted(false);
  }
  if (run->rerunAfter >= -1) {
    if (!applyRerun(*run))
      return launchRetargeted(false);
  } else {
    applyDocumentRun(*run);
  }
  updateKernels(*run);
  reportRecording(*run);
  launchRetargeted(run->rerunAfter == -1);
}

void Studio::launchRetargeted(bool rerunApplied) {
  if (!launchAfterRerun)
    return;
  PendingLaunch pending = std::move(*launchAfterRerun);
  launchAfterRerun.reset();
  std::string why;
  int kernel = rerunApplied ? findKernel(pending.kernel) : -1;
  if (!rerunApplied)
    why = "its re-run for " + pending.triple + " did not complete";
  else if (kernel < 0)
    why = "the re-run for " + pending.triple + " has no kernel " +
          pending.kernel;
  else if (std::string note = otherTripleNote(static_cast<size_t>(kernel));
           !note.empty())
    why = "after the re-run it is still " + note;
  if (!why.empty()) {
    setStatus(statusText + "; " + pending.kernel + " was not launched: " + why,
              true);
    return;
  }
  retargetedLaunchId = launch(static_cast<size_t>(kernel), pending.async);
  if (retargetedLaunchId)
    setStatus("re-ran the pipeline with " + pending.kernel + " compiled for " +
                  pending.triple + " (the executor's triple) and launched it",
              false);
}

void Studio::applyFailure(const RecordedRun &run) {
  // What the studio shows stays; an edit stays in its editor, with the
  // failure listed under it.
  if (run.rerunAfter >= -1) {
    RecordedDiagnostic failure;
    failure.message = run.failure;
    editErrs = {failure};
    stepper.setEditDiagnostics(editErrs, run.rerunAfter);
    ++editGen;
  }
  setStatus(run.failure + (run.rerunAfter >= -1 ? "; the edit is kept"
                                                : "; the recording shown is the last one"),
            true);
}

bool Studio::applyRerun(RecordedRun &run) {
  if (!run.recording.inputIR) {
    // The edit does not parse or verify: say where, keep the recording.
    editErrs = std::move(run.recording.diagnostics);
    stepper.setEditDiagnostics(editErrs, run.rerunAfter);
    ++editGen;
    const RecordedDiagnostic *first = editErrs.empty() ? nullptr : &editErrs[0];
    setStatus(first ? "the edit does not parse: line " + std::to_string(first->line) +
                          ": " + first->message
                    : "the edit does not parse",
              true);
    return false;
  }
  if (!original) {
    original = std::make_unique<Original>();
    original->recording = stepper.recording();
    original->kernels = kernelList;
    original->kernelNote = kernelNote;
    original->workspace = currentWorkspace;
    original->pipeline = lastPipeline;
  }
  editPass = run.rerunAfter;
  editApplied = true;
  editText = *run.text;
  editPipeline = run.pipeline;
  editErrs.clear();
  stepper.setEditDiagnostics({}, -1);
  ++editGen;
  int keep = stepper.selected();
  stepper.setRecording(spliceRecording(stepper.recording(), run.rerunAfter, run.text,
                                       std::move(run.recording)));
  // A failed re-run opens at the failing pass; else the selection stays.
  const Recording &now = stepper.recording();
  if (!now.succeeded && !now.snapshots.empty() && now.snapshots.back().failed)
    stepper.select(static_cast<int>(now.snapshots.size()) - 1);
  else
    stepper.select(keep);
  lastPipeline = run.pipeline;
  currentWorkspace = run.workspace;
  ++recordingGen;
  if (run.keepKernels) {
    run.kernels = kernelList;
    run.kernelNote = kernelNote;
  } else {
    run.kernelNote = "kernels of the re-run after the edit of pass " +
                    std::to_string(run.rerunAfter + 1);
  }
  return true;
}

void Studio::dropEdit() {
  original.reset();
  editPass = -2;
  editApplied = false;
  editErrs.clear();
  stepper.setEditDiagnostics({}, -1);
  ++editGen;
}

void Studio::applyDocumentRun(RecordedRun &run) {
  stepper.setRecording(std::move(run.recording));
  if (run.shownDiff)
    stepper.addPreparedDiff(std::move(*run.shownDiff));
  lastPipeline = run.pipeline;
  currentWorkspace = run.workspace;
  ++recordingGen;
  // A recording of the document drops the edit.
  if (original || editPass >= -1 || !editErrs.empty())
    dropEdit();
  // A pipeline that fails opens at the failing pass, its error line in
  // view; a document that does not parse opens at its first error.
  const Recording &now = stepper.recording();
  if (!now.succeeded && !now.snapshots.empty() && now.snapshots.back().failed) {
    stepper.select(static_cast<int>(now.snapshots.size()) - 1);
    for (const DiagnosticItem &d : stepper.diagnostics())
      if (d.snapshot == stepper.selected() && !d.isNote && d.line > 0) {
        stepper.jumpTo(d);
        break;
      }
  } else if (!now.inputIR) {
    for (const DiagnosticItem &d : stepper.diagnostics())
      if (!d.isNote && d.line > 0) {
        stepper.showSourceLine(d.line);
        break;
      }
  } else if (freshlyOpened) {
    // A document just opened shows what its pipeline does first: the
    // first pass that changed something.
    for (size_t i = 0; i < now.snapshots.size(); ++i)
      if (now.snapshots[i].changed) {
        stepper.select(static_cast<int>(i));
        break;
      }
  }
  if (now.inputIR)
    freshlyOpened = false;
}

void Studio::updateKernels(RecordedRun &run) {
  std::string selectedName =
      kernelIndex >= 0 && kernelIndex < static_cast<int>(kernelList.size())
          ? kernelList[kernelIndex].qualifiedName()
          : "";
  kernelList = std::move(run.kernels);
  kernelNote = std::move(run.kernelNote);
  kernelIndex = kernelList.empty() ? -1 : 0;
  for (size_t k = 0; k < kernelList.size(); ++k) {
    const Kernel &kernel = kernelList[k];
    if (kernel.qualifiedName() == selectedName)
      kernelIndex = static_cast<int>(k);
    Inputs &in = inputs[kernel.qualifiedName()];
    in.types.resize(kernel.inputs.size());
    in.texts.resize(kernel.inputs.size());
    for (size_t a = 0; a < kernel.inputs.size(); ++a) {
      if (in.types[a] != kernel.inputs[a].type) {
        in.types[a] = kernel.inputs[a].type;
        in.texts[a] = defaultInputText(kernel.inputs[a]);
      }
    }
  }
}

namespace {
/// "1 pass", "3 passes".
std::string passCount(size_t count) {
  return std::to_string(count) + (count == 1 ? " pass" : " passes");
}
} // namespace

void Studio::reportRecording(const RecordedRun &run) {
  const Recording &rec = stepper.recording();
  char text[256];
  if (editApplied && run.rerunAfter >= -1) {
    std::snprintf(text, sizeof(text), "re-ran %s after the edit of pass %d in %.1f ms%s",
                  passCount(rec.snapshots.size() - (run.rerunAfter + 1)).c_str(),
                  run.rerunAfter + 1, run.milliseconds,
                  rec.succeeded ? "" : "; the pipeline failed");
    setStatus(text, !rec.succeeded);
  } else if (!rec.inputIR) {
    std::snprintf(text, sizeof(text), "%s does not parse: %zu error(s)",
                  doc.name().c_str(), stepper.errorCount());
    setStatus(text, true);
  } else if (!rec.succeeded) {
    std::snprintf(text, sizeof(text),
                  "%s recorded in %.1f ms; the pipeline failed: %zu error(s)",
                  passCount(rec.snapshots.size()).c_str(), rec.totalMilliseconds,
                  stepper.errorCount());
    setStatus(text, true);
  } else {
    std::snprintf(text, sizeof(text), "%s (%zu changed) in %.1f ms",
                  passCount(rec.snapshots.size()).c_str(), stepper.changedCount(),
                  rec.totalMilliseconds);
    setStatus(text, false);
  }
}

void Studio::update() {
  applyRecording();
  exec->drain();
  if (autoReloadOn && doc.hasFile() &&
      Clock::now() - lastDiskCheck > std::chrono::milliseconds(500)) {
    lastDiskCheck = Clock::now();
    if (doc.changedOnDisk())
      reload();
  }
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

void Studio::selectKernel(int index) {
  if (kernelList.empty())
    kernelIndex = -1;
  else
    kernelIndex = std::clamp(index, 0, static_cast<int>(kernelList.size()) - 1);
}

int Studio::findKernel(const std::string &name) const {
  for (size_t k = 0; k < kernelList.size(); ++k)
    if (kernelList[k].isNamed(name))
      return static_cast<int>(k);
  return -1;
}

std::string &Studio::inputText(size_t kernel, size_t arg) {
  Inputs &in = inputs[kernelList.at(kernel).qualifiedName()];
  if (in.texts.size() <= arg) {
    in.texts.resize(arg + 1);
    in.types.resize(arg + 1);
  }
  return in.texts[arg];
}

ParsedArgument Studio::parsedInput(size_t kernel, size_t arg) {
  const Kernel &k = kernelList.at(kernel);
  return parseInput(k.inputs.at(arg), inputText(kernel, arg));
}

bool Studio::setInputsFromJson(size_t kernel, const std::string &text,
                               std::string &error) {
  const Kernel &k = kernelList.at(kernel);
  llvm::Expected<llvm::json::Value> j = llvm::json::parse(text);
  const llvm::json::Array *list = j ? j->getAsArray() : nullptr;
  if (!j)
    llvm::consumeError(j.takeError());
  if (!list) {
    error = "--inputs must be a JSON array with one entry per argument";
    return false;
  }
  if (list->size() != k.inputs.size()) {
    error = argumentCountError(k.qualifiedName(), k.inputs.size(),
                               list->size(), "--inputs");
    return false;
  }
  for (size_t a = 0; a < k.inputs.size(); ++a)
    inputText(kernel, a) = llvm::formatv("{0}", (*list)[a]).str();
  return true;
}

bool Studio::buildLaunch(size_t kernel, bool async, LaunchRequest &request,
                         std::string &error) {
  if (kernel >= kernelList.size()) {
    error = "no such kernel";
    return false;
  }
  const Kernel &k = kernelList[kernel];
  if (!k.launchable) {
    error = k.qualifiedName() + " cannot be launched: " + k.why;
    return false;
  }
  request = LaunchRequest();
  request.label = k.qualifiedName();
  request.entry = k.entry;
  request.object = k.object;
  request.results = k.results;
  request.inputTypes = k.inputs;
  request.async = async;
  for (size_t a = 0; a < k.inputs.size(); ++a) {
    ParsedArgument in = parsedInput(kernel, a);
    if (!in.ok) {
      error = argumentError(k.qualifiedName(), a, k.inputs[a], in.error);
      return false;
    }
    request.inputs.push_back(std::move(in.data));
  }
  return true;
}

uint64_t Studio::launch(size_t kernel, bool async) {
  LaunchRequest request;
  std::string error;
  if (!buildLaunch(kernel, async, request, error)) {
    setStatus(error, true);
    return 0;
  }
  if (!exec->canLaunch()) {
    setStatus(std::string("cannot launch: the executor is ") +
                  stateName(exec->state()) + "; connect first",
              true);
  } else if (std::string note = otherTripleNote(kernel); !note.empty()) {
    // Its object would be refused: compile its target for the executor,
    // then launch (launchRetargeted).
    std::string name = kernelList[kernel].qualifiedName();
    std::string triple = exec->executorTriple();
    if (!rerunForExecutorTriple(kernel))
      return 0;
    launchAfterRerun = PendingLaunch{name, triple, async};
    retargetedLaunchId = 0;
    setStatus(name + " is " + note + ": re-running the pipeline with it "
                  "compiled for " + triple + ", then launching it...",
              false);
    return 0;
  }
  return exec->launch(std::move(request));
}

uint64_t Studio::launchUnderDebugger(size_t kernel) {
  LaunchRequest request;
  std::string error;
  if (!buildLaunch(kernel, false, request, error)) {
    setStatus(error, true);
    return 0;
  }
  uint64_t id = exec->launchUnderDebugger(std::move(request));
  if (id && !withDebugInfo)
    setStatus("launched under a debugger without debug info: turn on \"debug "
              "build\" for the kernel's .mlir lines and arguments",
              false);
  return id;
}

uint64_t Studio::launchSelected(bool async) {
  if (kernelIndex < 0) {
    setStatus("no kernel to launch: the document has no catalyst.launch_kernel", true);
    return 0;
  }
  return launch(static_cast<size_t>(kernelIndex), async);
}

} // namespace executor_studio::gui
