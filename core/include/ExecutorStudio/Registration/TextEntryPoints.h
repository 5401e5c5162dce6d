//===- TextEntryPoints.h - the recorder and the diff on text ----*- C++ -*-===//
//
// The entry points of core/Pipeline that start from text: they parse with
// every dialect this project registers (Registration.h), so they live in the
// Registration library, above Pipeline, and are declared here, beside their
// definitions (PipelineRecorderText.cpp, StructuralDiffText.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_REGISTRATION_TEXTENTRYPOINTS_H
#define EXECUTORSTUDIO_REGISTRATION_TEXTENTRYPOINTS_H

#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/StructuralDiff.h"

#include "mlir/IR/OwningOpRef.h"

#include <optional>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class ModuleOp;
class ParserConfig;
} // namespace mlir

namespace executor_studio {

/// Parses the main file of `sourceMgr` into a module, as
/// mlir::parseSourceFile does. With `keepArgumentNames`, the arguments of
/// each func.func keep the names they are written with (`%x`: a NameLoc "x"
/// on the argument; `%0` is no name), which the kernels' debug variables
/// take (Transforms/DebugVariables.h): how executor-compile -g and the
/// recordings of a debug build (RecordOptions::keepArgumentNames) parse, so
/// that a debugger shows the kernel's `x`, not `arg0`.
mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::SourceMgr &sourceMgr,
                                              const mlir::ParserConfig &config,
                                              bool keepArgumentNames);

/// Parses `source` (named `bufferName` in diagnostics) with every dialect of
/// executor-opt and records `options.pipeline` on it.
Recording recordPipeline(llvm::StringRef source, llvm::StringRef bufferName,
                         const RecordOptions &options);

/// Re-runs the rest of a pipeline on edited IR: parses `text` as the IR
/// after step `afterStep` of `options.pipeline` (0-based, as the snapshots
/// of recordPipeline are numbered; -1 for the input) and records the steps
/// after it. The answer is a normal recording of that rest: `inputIR` is
/// `text` as parsed and printed, `snapshots[i]` is step `afterStep + 1 + i`
/// (its `index` says so; `firstStep` is `afterStep + 1`), and when `text`
/// does not parse or verify its diagnostics (lines of `text`, file
/// `bufferName`) are in `diagnostics` with no snapshots. An `afterStep`
/// past the pipeline's steps is a diagnostic too.
Recording recordPipelineFrom(llvm::StringRef text, llvm::StringRef bufferName,
                             const RecordOptions &options, int afterStep);

/// alignSnapshots (StructuralDiff.h) with every dialect executor-opt
/// registers (unregistered ones let through), in a context of its own, on a
/// thread with the parser's stack.
llvm::Expected<AlignedSnapshots> alignSnapshots(llvm::StringRef left,
                                                llvm::StringRef right);

/// The recording worker's side (Pipeline/RecordingWorker.h): reads the
/// RecordRequest in `requestPath`, records it (recordPipeline or
/// recordPipelineFrom) and writes the recording to `resultPath`. Its exit
/// code.
int runRecordWorker(llvm::StringRef requestPath, llvm::StringRef resultPath);
/// `argv` is `EXE --record-worker REQUEST RESULT`: runs the worker and
/// returns its exit code; none for any other command line. Every executable
/// that records in a worker (recordInWorker with itself) calls it first in
/// main().
std::optional<int> runRecordWorkerIfAsked(int argc, char **argv);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_REGISTRATION_TEXTENTRYPOINTS_H
