//===- PassOptionHelp.h - what a pass's options are -------------*- C++ -*-===//
//
// MLIR reports a misspelled pass option as "no such option X". These helpers
// say instead which pass it was, which options that pass takes and which one
// was probably meant. executor-opt, executor-compile, the language server and
// the studio all parse pipelines through them.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_PIPELINE_PASSOPTIONHELP_H
#define EXECUTORSTUDIO_PIPELINE_PASSOPTIONHELP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::detail {
class PassOptions;
} // namespace mlir::detail

namespace executor_studio {
/// Records the option names of the registered pass pipeline `pipeline`
/// (MLIR does not give them back once registered), for the messages below.
void registerPipelineOptions(llvm::StringRef pipeline,
                             const mlir::detail::PassOptions &options);

/// Every registered pass and pass pipeline, sorted.
llvm::SmallVector<std::string> getRegisteredPassNames();

/// The option names of the registered pass (or pipeline registered with
/// registerPipelineOptions) `passName` (empty when it is neither or takes
/// no options).
llvm::SmallVector<std::string> getPassOptionNames(llvm::StringRef passName);

/// Why `options` (the text inside `passName{...}`) do not suit the
/// registered pass `passName`: each unknown option, the nearest valid
/// spelling and the valid ones. Empty when every option is known (or the
/// pass is not registered: the pipeline parser reports that itself).
std::string explainPassOptions(llvm::StringRef passName,
                               llvm::StringRef options);

/// Why `name` is no pass: it is not registered, and the nearest registered
/// name. Empty when it is a registered pass or pipeline.
std::string explainUnknownPass(llvm::StringRef name);

/// The same for every `name{options}` and `name` element of a textual
/// pipeline: unknown passes and unknown options, each with the nearest
/// valid name. Empty when there is nothing to say.
std::string explainPipelineOptions(llvm::StringRef pipeline);

/// `pipeline` with `option=value` added to every element that runs one of
/// `passes` without giving `option` (`pass` becomes `pass{option=value}`).
std::string addMissingPassOption(llvm::StringRef pipeline,
                                 llvm::ArrayRef<llvm::StringRef> passes,
                                 llvm::StringRef option, llvm::StringRef value);
} // namespace executor_studio

#endif // EXECUTORSTUDIO_PIPELINE_PASSOPTIONHELP_H
