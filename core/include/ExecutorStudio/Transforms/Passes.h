//===- Passes.h - Executor Studio passes ------------------------*- C++ -*-===//
#ifndef EXECUTORSTUDIO_TRANSFORMS_PASSES_H
#define EXECUTORSTUDIO_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <memory>
#include <string>

namespace mlir {
class OpPassManager;
namespace arith {
class ArithDialect;
} // namespace arith
namespace tensor {
class TensorDialect;
} // namespace tensor
namespace func {
class FuncDialect;
} // namespace func
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
} // namespace mlir

namespace catalyst {
namespace executor {
class ExecutorDialect;
} // namespace executor

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "ExecutorStudio/Transforms/Passes.h.inc"

/// Options of the default pipeline (`executor-default-pipeline`).
struct DefaultPipelineOptions {
  /// Where cross-compile-targets writes the target objects.
  std::string workspace;
  /// Forwarded to cross-compile-targets.
  std::string saveIrAfterEach;
  /// cross-compile-targets' `debug` and `opt-level`.
  bool debug = false;
  unsigned optLevel = 2;
  /// cross-compile-targets' `jobs` (0: as many as the thread pool runs).
  unsigned jobs = 0;
  /// cross-compile-targets' `executor-triple`: the triple every
  /// dispatched target is compiled for (empty: each its own).
  std::string executorTriple = "";
};

/// lower-runtime-dispatch, one-shot-bufferize, cross-compile-targets,
/// dispatch-executor-targets, convert-executor-to-llvm and the standard
/// lowering of the host to the LLVM dialect.
void buildDefaultPipeline(mlir::OpPassManager &pm,
                          const DefaultPipelineOptions &options);
/// The same pipeline as text, as `--pass-pipeline` takes it.
std::string getDefaultPipelineText(const DefaultPipelineOptions &options);
/// A pass option's value as pipeline text writes it: in double quotes when
/// it holds a space, a comma, a brace or `=`.
std::string quotePassOption(llvm::StringRef value);
/// The stage cross-compile-targets runs on a target module with no
/// `pipeline` of its own: bufferization and the lowering to LLVM.
std::string getDefaultTargetPipelineText();
/// The standard lowering of a bufferized module to the LLVM dialect.
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm);

/// The in-memory cache of compiled targets that cross-compile-targets
/// shares across its runs in a process.
/// Behind it, a cache on disk shared by the processes (the language
/// server's and the studio's recording workers, the driver):
/// $EXECUTOR_STUDIO_CACHE_DIR, $XDG_CACHE_HOME/executor-studio or
/// ~/.cache/executor-studio, in targets/, least recently used out above
/// 512 MiB (EXECUTOR_STUDIO_DISK_CACHE_MB); EXECUTOR_STUDIO_DISK_CACHE=0
/// turns it off.
struct TargetCacheStatistics {
  /// Targets answered from memory, from disk, and compiled.
  size_t hits = 0, diskHits = 0, misses = 0;
  /// What the memory holds.
  size_t entries = 0, bytes = 0, limit = 0;
  std::string diskDirectory; // empty: none
  size_t diskLimit = 0;
};
TargetCacheStatistics getTargetCacheStatistics();
/// Bounds the cache in memory (least recently used out); 0 empties it.
void setTargetCacheLimit(size_t bytes);
/// Where the cache on disk is; "": none.
void setTargetDiskCacheDirectory(llvm::StringRef dir);

/// Registers `executor-default-pipeline`, `executor-target-pipeline` and
/// `executor-lower-to-llvm` for --pass-pipeline.
void registerExecutorStudioPipelines();

} // namespace catalyst

#endif // EXECUTORSTUDIO_TRANSFORMS_PASSES_H
