//===- Studio.h - everything executor-studio knows --------------*- C++ -*-===//
//
// The document, its recording (made by the pipeline recorder in a worker
// process, RecordingWorker.h, watched by a thread: a pass that crashes
// leaves an error and everything shown, edits included, as it was), the pass stepper, the kernels its targets expose, their input
// editors, and the executor panel. The UI calls update() once a frame and
// draws what it finds here.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_STUDIO_H
#define STUDIOMODEL_STUDIO_H

#include "StudioModel/Document.h"
#include "StudioModel/ExecutorModel.h"
#include "StudioModel/GraphModel.h"
#include "StudioModel/Kernels.h"
#include "StudioModel/PipelineModel.h"
#include "StudioModel/Recovery.h"
#include "StudioModel/Start.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace executor_studio::gui {

struct StudioOptions {
  ExecutorOptions executor;
  /// Where the recordings' workspaces go (empty: a temporary directory,
  /// removed with the studio).
  std::string workspaceRoot;
  /// The executable that records in a worker process (`EXE --record-worker
  /// ...`, RecordingWorker.h; its main() calls runRecordWorkerIfAsked);
  /// empty: the running program.
  std::string workerExecutable;
  /// How long a recording may take before its worker is killed.
  std::chrono::milliseconds recordTimeout{std::chrono::minutes(5)};
  /// Where edits are kept until they are reverted (Recovery.h; the app
  /// passes RecoveryStore::defaultDir()); empty: nowhere.
  std::string recoveryDir;
};

class Studio {
public:
  explicit Studio(StudioOptions options = {});
  ~Studio();
  Studio(const Studio &) = delete;
  Studio &operator=(const Studio &) = delete;

  //===--- The document ----------------------------------------------------===//
  /// What `start` asks to open and how to record it (its pipeline, debug
  /// build and locations), set once: one recording of its file (when it
  /// names one). False (see status()) when the file cannot be read.
  bool start(const StudioStart &start);
  /// Reads `path` and records it; false (see status()) when it cannot be read.
  bool open(const std::string &path);
  /// A document from text (tests, pasted IR); recorded at once.
  void openText(std::string name, std::string text);
  bool reload();
  const Document &document() const { return doc; }
  /// Reload (and record again) when the file changes on disk.
  void setAutoReload(bool on) { autoReloadOn = on; }
  bool autoReload() const { return autoReloadOn; }

  //===--- The pipeline ----------------------------------------------------===//
  /// The pipeline to record (`builtin.module(cse,canonicalize)` or
  /// `cse,canonicalize`); empty for the default pipeline. Records again.
  void setPipelineText(std::string text);
  const std::string &pipelineText() const { return customPipeline; }
  bool usesDefaultPipeline() const { return customPipeline.empty(); }
  /// Print `loc(...)` in the snapshots (the diff can hide them again).
  /// Records again.
  void setPrintLocations(bool on);
  bool printLocations() const { return withLocations; }
  /// Step `position`'s text with its locations (`loc`, a kernel's `!dbg`
  /// and `.loc`), for the linked view: the recording's own when it prints
  /// them; else that of a recording of the document with locations, made
  /// in the background the first time one is asked for after each
  /// recording (null until it is in: locating(); or when it failed or the
  /// studio shows an edit: locatingError()). The snapshots shown keep
  /// their text without locations.
  std::shared_ptr<const std::string> locatedText(int position);
  bool locating() const;
  /// Waits up to `timeout` for the recording with locations (none asked
  /// for: at once); false when it is still running.
  bool waitForLocated(std::chrono::milliseconds timeout);
  const std::string &locatingError() const { return locatedError; }
  /// Compile the kernels with debug info (cross-compile-targets{debug=true}:
  /// crash reports and gdb show their .mlir lines). Records again.
  void setDebugBuild(bool on);
  bool debugBuild() const { return withDebugInfo; }
  /// The default pipeline for `workspace` (with debug info for the kernels
  /// when `debug`).
  static std::string defaultPipeline(const std::string &workspace,
                                     bool debug = false);
  /// The pipeline of the current recording, as recorded.
  const std::string &recordedPipeline() const { return lastPipeline; }
  /// Records the document again (on the worker thread).
  void record();
  bool recordingInProgress() const;
  /// Waits for the recording in progress and applies it.
  bool waitForRecording(std::chrono::milliseconds timeout);
  /// Bumped when a recording is applied.
  uint64_t recordingGeneration() const { return recordingGen; }
  /// The workspace of the current recording (its objects live there).
  const std::string &workspace() const { return currentWorkspace; }
  PipelineModel &passes() { return stepper; }
  const PipelineModel &passes() const { return stepper; }
  /// The Graph view's function, layout and cursor.
  GraphModel &graph() { return graphModel; }

  //===--- Editing a snapshot and re-running the rest ----------------------===//
  /// Re-runs the steps after pass `pass` (0-based, as the pass list counts
  /// from 1; -1: the input) on `text`, the IR after that pass as edited (on
  /// the worker). When it parses, the recording becomes the document's up to
  /// `pass` (that snapshot showing `text`, marked edited) and the re-run
  /// after it, with the kernels the re-run built; when it does not,
  /// editErrors() says where and the recording stays.
  void rerunFrom(int pass, std::string text);
  /// The pass of the last edit that was applied (-1: the recording shows
  /// no edit).
  int editedPass() const { return editPass; }
  bool hasEdit() const { return editPass >= -1 && editApplied; }
  /// The text of the last edit that was applied.
  const std::string &editedText() const { return editText; }
  /// Why the last edit was not applied (parse or verify errors, lines of
  /// the edited text); empty when it was.
  const std::vector<RecordedDiagnostic> &editErrors() const { return editErrs; }
  /// Bumped when an edit is applied, rejected or reverted.
  uint64_t editGeneration() const { return editGen; }
  /// Back to the recording of the document itself (and its kernels).
  bool revertEdit();
  /// The pipeline left after the edited pass (what executor-opt runs on the
  /// saved edit to reproduce the run).
  std::string editRemainingPipeline() const;
  /// The saved form of the edit: a header naming the command that
  /// reproduces the run, then the edited IR.
  std::string reproducerText() const;
  /// Writes reproducerText() to `path`.
  bool saveEdit(const std::string &path, std::string &error);

  //===--- Edits kept from an earlier session (Recovery.h) ------------------===//
  /// The edit of this document that an earlier session kept (rerunFrom
  /// keeps each edit before it runs; revertEdit drops it), found when the
  /// document was opened; null when there is none or it was restored or
  /// discarded.
  const RecoveredEdit *recoveredEdit() const {
    return recovered ? &*recovered : nullptr;
  }
  /// Re-runs the kept edit (rerunFrom) once the document's recording is
  /// there; false (see status()) when it is not yet, or the pass is not in
  /// the recording.
  bool restoreRecoveredEdit();
  /// Forgets the kept edit and removes its file.
  void discardRecoveredEdit();

  //===--- Kernels ---------------------------------------------------------===//
  const std::vector<Kernel> &kernels() const { return kernelList; }
  /// Why no kernels could be listed (the document does not parse), or how
  /// their objects were built.
  const std::string &kernelsNote() const { return kernelNote; }
  int selectedKernel() const { return kernelIndex; }
  void selectKernel(int index);
  /// Finds a kernel by `entry`, `module::entry` or `@module::@entry`.
  int findKernel(const std::string &name) const;
  /// The input editor's text of argument `arg` of kernel `kernel`.
  std::string &inputText(size_t kernel, size_t arg);
  ParsedArgument parsedInput(size_t kernel, size_t arg);
  /// Sets every input of `kernel` from a JSON array with one entry per
  /// argument (each an array, a number or a pattern object).
  bool setInputsFromJson(size_t kernel, const std::string &json,
                         std::string &error);
  /// Builds the launch of `kernel` from its inputs.
  bool buildLaunch(size_t kernel, bool async, LaunchRequest &request,
                   std::string &error);
  /// Launches `kernel` with its inputs; 0 (logged) when it cannot. A
  /// kernel whose target is compiled for another architecture than the
  /// connected executor's is not refused: its target is re-run for the
  /// executor's triple (rerunForExecutorTriple) and the launch is made when
  /// that recording is applied (update(), waitForRecording()); 0 then, and
  /// retargetedLaunch() gives the launch's id once it is made.
  uint64_t launch(size_t kernel, bool async);
  uint64_t launchSelected(bool async);
  /// Launches `kernel` under a debugger (ExecutorModel::launchUnderDebugger):
  /// the session waits for gdb or lldb, whose commands debugLaunch() gives.
  uint64_t launchUnderDebugger(size_t kernel);

  ExecutorModel &executor() { return *exec; }

  //===--- Targets for the executor's architecture -------------------------===//
  /// Why kernel `kernel` cannot run on the connected executor (its target is
  /// compiled for another architecture), or "" (Retarget.h).
  std::string otherTripleNote(size_t kernel) const;
  /// Re-runs the pipeline on the document with the target module of kernel
  /// `kernel` compiled for the connected executor's triple (its
  /// catalyst.target.triple set in the text): an edit of the input, so
  /// reproducerText() and saveEdit() give the `.mlir` with the attribute set.
  /// False (see status()) when there is no executor triple or no such target.
  bool rerunForExecutorTriple(size_t kernel);
  /// The launch made after a re-run for the executor's triple (launch());
  /// 0 while none was made.
  uint64_t retargetedLaunch() const { return retargetedLaunchId; }
  /// Whether a launch waits for its re-run for the executor's triple.
  bool launchWaitsForRetarget() const { return launchAfterRerun.has_value(); }

  //===--- Each frame ------------------------------------------------------===//
  /// Applies a finished recording, drains the executor's queue, notices
  /// the file changing.
  void update();
  /// The last thing that happened, for the status bar.
  const std::string &status() const { return statusText; }
  bool statusIsError() const { return statusError; }

  struct Recorder;
  /// What a recording (of the document, or a re-run after an edit) gives.
  struct RecordedRun;

private:
  void startRecording();
  /// Sets a flag the recording depends on; records again when it changed.
  void setRecordingOption(bool &option, bool on);
  /// Takes a finished recording, if any: applyRerun or applyDocumentRun,
  /// then updateKernels and reportRecording.
  void applyRecording();
  /// An edit's re-run spliced into the recording; false (the error shown,
  /// the recording kept) when the edit does not parse.
  bool applyRerun(RecordedRun &run);
  /// A recording of the document; it drops the edit.
  /// Forgets the edit of a pass: its text, its errors, the original recording.
  void dropEdit();
  void applyDocumentRun(RecordedRun &run);
  /// The worker gave no recording: say why, keep what is shown.
  void applyFailure(const RecordedRun &run);
  /// The run's kernels, keeping the selection and the inputs typed.
  void updateKernels(RecordedRun &run);
  /// The status line for the recording.
  void reportRecording(const RecordedRun &run);
  void setStatus(std::string text, bool error);
  /// The key of the document's recovery file: its path, or its name.
  std::string recoveryKey() const;
  /// Looks for a kept edit of the document just opened.
  void findRecoveredEdit();

  StudioOptions opts;
  RecoveryStore recovery;
  std::optional<RecoveredEdit> recovered;
  Document doc;
  PipelineModel stepper;
  GraphModel graphModel;
  std::unique_ptr<ExecutorModel> exec;
  std::unique_ptr<Recorder> recorder;
  /// The recording with locations behind locatedText(), of recording
  /// generation `locatedFor`.
  std::unique_ptr<Recorder> locator;
  /// Submits a recording of the document as it is (the studio's pipeline
  /// and options, `locations` printed) to `to`, in `workspace`.
  void submitDocumentRecording(Recorder &to, std::string workspace, bool locations,
                               bool textsOnly);
  std::unique_ptr<PipelineModel> located;
  uint64_t locatedFor = 0;
  std::string locatedError;
  std::string root;
  bool ownsRoot = false;
  unsigned nextWorkspace = 0;
  std::string currentWorkspace;
  std::string customPipeline, lastPipeline;
  uint64_t recordingGen = 0;
  /// The next recording of the document is its first since it was opened:
  /// it opens at the first pass that changed something.
  bool freshlyOpened = false;
  bool autoReloadOn = true;
  bool withLocations = false;
  bool withDebugInfo = false;
  std::chrono::steady_clock::time_point lastDiskCheck;

  // The last edit, and the document's own recording it replaced.
  int editPass = -2;
  bool editApplied = false;
  std::string editText, editPipeline;
  std::vector<RecordedDiagnostic> editErrs;
  uint64_t editGen = 0;
  struct Original {
    Recording recording;
    std::vector<Kernel> kernels;
    std::string kernelNote, workspace, pipeline;
  };
  std::unique_ptr<Original> original;

  std::vector<Kernel> kernelList;
  std::string kernelNote;
  int kernelIndex = -1;
  struct Inputs {
    std::vector<std::string> types, texts;
  };
  std::map<std::string, Inputs> inputs;

  std::string statusText;
  bool statusError = false;

  /// The launch that waits for its target's re-run for the executor's
  /// triple (launch()).
  struct PendingLaunch {
    std::string kernel; ///< `@module::@entry`
    std::string triple;
    bool async = false;
  };
  std::optional<PendingLaunch> launchAfterRerun;
  uint64_t retargetedLaunchId = 0;
  /// Makes the pending launch once its re-run was applied (or says why not).
  void launchRetargeted(bool rerunApplied);
};

} // namespace executor_studio::gui

#endif // STUDIOMODEL_STUDIO_H
