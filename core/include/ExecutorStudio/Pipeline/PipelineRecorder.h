//===- PipelineRecorder.h - the IR after every pass -------------*- C++ -*-===//
//
// The one mechanism the driver, the language server and the GUI use to run a
// pipeline and see the IR after every pass. Takes text or a module, returns
// plain data: no MLIR types in this header.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_PIPELINE_PIPELINERECORDER_H
#define EXECUTORSTUDIO_PIPELINE_PIPELINERECORDER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class OpPassManager;
class Diagnostic;
class MLIRContext;
class Operation;
} // namespace mlir

namespace executor_studio {

/// The IR of a snapshot as text. Either the text itself, or (with
/// RecordOptions::deferText) a copy of the IR that is printed the first time
/// the text is asked for, once, from any thread: a recording then costs a
/// copy per changing step instead of printing the whole module, and only the
/// snapshots a front end shows are ever printed. Behaves like a
/// `std::shared_ptr<const std::string>`; two IRText of one step (a step that
/// changed nothing shares its predecessor's) give the same pointer.
class IRText {
public:
  IRText() = default;
  IRText(std::nullptr_t) {}
  IRText(std::shared_ptr<const std::string> text);
  /// Text that `make` produces on first use.
  static IRText deferred(std::function<std::string()> make);
  /// Text that `make` produces on first use, whose size in bytes and lines
  /// are known already (a text kept in a file): size() and lines() answer
  /// without making it.
  static IRText deferred(std::function<std::string()> make, size_t size,
                         size_t lines);

  /// The text (made now if it was deferred); null when there is none.
  const std::string *get() const;
  const std::string &operator*() const { return *get(); }
  const std::string *operator->() const { return get(); }
  explicit operator bool() const { return static_cast<bool>(state); }
  operator std::shared_ptr<const std::string>() const;
  /// Whether the text exists already (it is not deferred, or was asked for).
  bool isMade() const;
  /// The bytes of the text (0 when there is none); made now when they are
  /// not known.
  size_t size() const;
  /// The lines of the text (its '\n'; 0 when there is none), counted the
  /// first time they are asked for: every copy of this IRText (a recording
  /// the recording cache keeps and answers again) shares the count.
  size_t lines() const;
  /// Whether both are the same text object (a snapshot that shares its
  /// predecessor's text: the pass changed nothing), without making either.
  bool sameAs(const IRText &other) const;

  friend bool operator==(const IRText &a, const IRText &b) {
    return a.state == b.state || a.get() == b.get();
  }
  friend bool operator!=(const IRText &a, const IRText &b) {
    return !(a == b);
  }

private:
  struct State;
  std::shared_ptr<State> state;
};

/// One diagnostic, with its location resolved to file, line and column.
struct RecordedDiagnostic {
  enum class Severity { Error, Warning, Remark, Note };
  Severity severity = Severity::Error;
  std::string message;
  std::string file;
  unsigned line = 0;   // 1-based; 0 when the location has no line
  unsigned column = 0; // 1-based
  /// Attached notes.
  std::vector<RecordedDiagnostic> notes;
  /// The pipeline step that emitted it (Snapshot::pass); empty for the
  /// parser or verifier.
  std::string pass;
};

/// What the text of a snapshot is.
enum class SnapshotKind { MLIR, LLVMIR, Assembly };
/// `mlir`, `llvm` or `asm`; also the extension of a saved snapshot.
const char *snapshotKindName(SnapshotKind kind);

/// The state after one step of the pipeline as written: a pass on the root
/// op, or a nested pipeline (`func.func(convert-linalg-to-loops)`) once it
/// has run on every op it anchors on.
struct Snapshot {
  /// Position in the recording, from 0 (the step's number, as every front
  /// end shows it and writeSnapshots names its file, is `index + 1`). A
  /// nested snapshot counts within its target from 0, its extracted module,
  /// and its number is its index.
  unsigned index = 0;
  /// The pass argument (`cse`), or its name when it has none; for a nested
  /// pipeline its text (`func.func(convert-linalg-to-loops)`).
  std::string pass;
  /// The step as textual pipeline element, with its options
  /// (`cross-compile-targets{workspace=/tmp/ws}`).
  std::string options;
  /// The operation the step ran on (`builtin.module @host`); for a target's
  /// LLVM IR and assembly, its triple.
  std::string anchor;
  /// Whether the IR changed (OperationFingerPrint of the root).
  bool changed = false;
  /// Whether the pass failed; it is then the last snapshot.
  bool failed = false;
  /// Whether `ir` is not what the pass printed but text a user put in its
  /// place (recordPipelineFrom re-ran the steps after it on that text).
  bool edited = false;
  double milliseconds = 0;
  /// The whole IR after the pass; shared with the previous snapshot when the
  /// pass changed nothing. Null when recording of IR is off.
  IRText ir;
  std::vector<RecordedDiagnostic> diagnostics;
  /// What `ir` holds (MLIR but for a target's LLVM IR and assembly).
  SnapshotKind kind = SnapshotKind::MLIR;
  /// For a nested snapshot, the target it belongs to (`compute`).
  std::string target;
  /// The steps recorded inside this one (RecordOptions::recordNested). For
  /// `cross-compile-targets`, per target: its extracted module
  /// (`compute/extracted`), the IR after each step of its own pipeline
  /// (`compute/convert-func-to-llvm`), its LLVM IR before and after LLVM's
  /// optimisation (`compute/llvm`, `compute/llvm-opt`) and its assembly for
  /// its triple (`compute/asm`). `pass` is `TARGET/STEP`.
  std::vector<Snapshot> nested;
};

struct RecordOptions {
  /// A textual pipeline (`builtin.module(cse,canonicalize)` or `cse,canonicalize`).
  std::string pipeline;
  /// Print the IR after each pass (off: only timing and change tracking).
  bool recordIR = true;
  /// Keep a copy of the IR after each changing step and print it only when
  /// its text is asked for (IRText): a copy costs less than printing, and
  /// only the snapshots a front end shows get printed. A recording from text
  /// keeps its own context alive for that; one of an operation defers only
  /// when it is given a `contextOwner`, and prints at once otherwise.
  bool deferText = true;
  bool printGenericForm = false;
  bool printDebugInfo = false;
  /// Let unregistered dialects through the parser.
  bool allowUnregisteredDialects = false;
  /// The text entry parses the functions' arguments with the names they
  /// are written with (parseModule in Registration/TextEntryPoints.h), as
  /// executor-compile -g does: the kernels' debug variables are then `x`,
  /// not `arg0`. For a recording that builds objects with debug info.
  bool keepArgumentNames = false;
  /// Record the pipelines that passes run on their own (each target's inside
  /// `cross-compile-targets`, down to its assembly) as Snapshot::nested.
  /// Needs recordIR.
  bool recordNested = false;
};

struct Recording {
  /// Whether the input parsed and verified and every pass succeeded.
  bool succeeded = false;
  /// The input as printed before the first pass.
  IRText inputIR;
  std::vector<Snapshot> snapshots;
  /// Diagnostics of parsing, verification and the pipeline text itself.
  std::vector<RecordedDiagnostic> diagnostics;
  /// The final IR, when everything succeeded.
  IRText outputIR;
  double totalMilliseconds = 0;
  /// The pipeline step the first snapshot is (0 unless this recording is the
  /// rest of a pipeline, from recordPipelineFrom).
  unsigned firstStep = 0;
  /// The bytes of the texts a recording worker sent that are kept on disk
  /// and read when one is asked for (its deferred texts; 0 for none).
  uint64_t keptTextBytes = 0;
};

/// Records `options.pipeline` on `op` in place (its context must have the
/// passes' dialects registered). On return `op` holds the final IR.
/// `contextOwner`, when given, is kept alive by deferred texts
/// (RecordOptions::deferText) until they are printed.
Recording recordPipeline(mlir::Operation *op, const RecordOptions &options,
                         std::shared_ptr<void> contextOwner = nullptr);

/// What the text entry knows of the op it records, which lets deferred
/// texts (RecordOptions::deferText) skip two copies of the whole IR.
struct ParsedInput {
  /// Parses the input again and returns what `print` makes of it: the
  /// input is printed when its text is asked for instead of copied before
  /// the first pass.
  std::function<std::string(const std::function<std::string(mlir::Operation *)> &print)>
      printReparsed;
  /// The op is owned by the context owner and nothing changes it after the
  /// recording: the text after the last step is printed from it instead of
  /// a copy.
  bool opIsKept = false;
};
/// recordPipeline on an op parsed from text (the text entry above).
Recording recordPipeline(mlir::Operation *op, const RecordOptions &options,
                         std::shared_ptr<void> contextOwner, const ParsedInput &parsed);

/// Waits until the copies of the IR that dropped snapshots held are
/// destroyed: that happens on a thread of its own, so that dropping a
/// recording or printing a deferred text does not wait for it. For
/// benchmarks, which time it apart, and tests.
void waitForDroppedCopies();

/// The steps of a textual pipeline as recordPipeline records them (one per
/// pass on the anchor; consecutive nested pipelines, which the pass manager
/// merges, as one), each as a pipeline element. `anchor` is the op the
/// pipeline runs on when the text does not name it. The passes must be
/// registered (recordPipeline and recordPipelineFrom on text register them).
llvm::Expected<std::vector<std::string>>
pipelineSteps(llvm::StringRef pipeline,
              llvm::StringRef anchor = "builtin.module");

/// `anchor(step afterStep+1, ...)`: what is left of `pipeline` after step
/// `afterStep` (-1: all of it).
llvm::Expected<std::string>
remainingPipeline(llvm::StringRef pipeline, int afterStep,
                  llvm::StringRef anchor = "builtin.module");

/// The whole-pipeline view of a re-run: `base`'s snapshots up to
/// `afterStep`, that one showing `editedIR` and marked edited, then `rest`'s
/// snapshots. Diagnostics of both; succeeded and output are `rest`'s.
Recording spliceRecording(const Recording &base, int afterStep,
                          std::shared_ptr<const std::string> editedIR,
                          Recording rest);

/// Parses a textual pipeline into `pm`, anchored
/// (`builtin.module(cse,canonicalize)`, whose anchor must be `pm`'s) or not
/// (`cse,canonicalize`). Explains a failure on `errors`.
bool parsePipelineInto(llvm::StringRef text, mlir::OpPassManager &pm,
                       llvm::raw_ostream &errors);

/// For a pass that runs a pipeline of its own (`cross-compile-targets`): the
/// options of the recordPipeline that runs it on this thread when that
/// records nested steps (RecordOptions::recordNested), else null.
const RecordOptions *nestedRecordingOptions();
/// Appends `snapshot` to the nested steps of the step running now; only
/// while nestedRecordingOptions() is not null.
void addNestedSnapshot(Snapshot snapshot);

/// Whether a pass running inside recordPipeline on this thread may use
/// threads of its own: the recorded context was multithreaded before the
/// recording made it run its passes on one thread (cross-compile-targets
/// compiles its targets in parallel then, each in a context of its own).
bool recordingAllowsThreads();

/// The snapshot a front end names `name`: a step's number (`5`, as
/// Snapshot::index documents), its pass (`cse`: the first of that name), or a
/// nested step's name with or without its parent's
/// (`cross-compile-targets/compute/convert-func-to-llvm`, `compute/asm`).
/// Null when there is none.
const Snapshot *findSnapshot(const Recording &recording, llvm::StringRef name);

/// Converts an MLIR diagnostic (with its notes) to plain data.
RecordedDiagnostic convertDiagnostic(mlir::Diagnostic &diag);

/// Which snapshots writeSnapshots writes.
enum class SaveMode {
  Pipeline, ///< the input and the output only
  Changed,  ///< after every pass that changed the IR
  Pass      ///< after every pass
};
/// Parses `pipeline|changed|pass`.
llvm::Expected<SaveMode> parseSaveMode(llvm::StringRef text);

/// Writes `{dir}/NN_<pass>.mlir` for the snapshots `mode` selects (NN counts
/// every pass, so numbers keep their meaning across modes), `00_input.mlir`
/// first, and the nested snapshots of each target as
/// `{dir}/TARGET/NN_<step>.{mlir,ll,s}` (`00_extracted.mlir`; `Pipeline`
/// mode: the extracted module and the assembly). Creates `dir`.
llvm::Error writeSnapshots(const Recording &recording, llvm::StringRef dir,
                           SaveMode mode);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_PIPELINE_PIPELINERECORDER_H
