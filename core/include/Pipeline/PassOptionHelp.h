//===- PassOptionHelp.h - what a pass's options are -------------*- C++ -*-===//
//
// MLIR reports a misspelled pass option as "no such option X". These helpers
// say instead which pass it was, which options that pass takes and which one
// was probably meant. executor-opt, executor-compile, the language server and
// the studio all parse pipelines through them.
//
//===----------------------------------------------------------------------===//
#ifndef PIPELINE_PASSOPTIONHELP_H
#define PIPELINE_PASSOPTIONHELP_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace executor_studio {
/// The option names of the registered pass `passName` (empty when it is not
/// a registered pass or takes no options).
llvm::SmallVector<std::string> getPassOptionNames(llvm::StringRef passName);

/// Why `options` (the text inside `passName{...}`) do not suit the
/// registered pass `passName`: each unknown option, the nearest valid
/// spelling and the valid ones. Empty when every option is known (or the
/// pass is not registered: the pipeline parser reports that itself).
std::string explainPassOptions(llvm::StringRef passName,
                               llvm::StringRef options);

/// The same for every `name{options}` element of a textual pipeline.
std::string explainPipelineOptions(llvm::StringRef pipeline);
} // namespace executor_studio

#endif // PIPELINE_PASSOPTIONHELP_H
