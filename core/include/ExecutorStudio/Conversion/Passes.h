//===- Passes.h - Executor Studio conversions -------------------*- C++ -*-===//
//
// convert-executor-to-llvm: the executor dialect to calls into the
// __catalyst__executor__* C ABI.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_CONVERSION_PASSES_H
#define EXECUTORSTUDIO_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace catalyst {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "ExecutorStudio/Conversion/Passes.h.inc"

} // namespace catalyst

#endif // EXECUTORSTUDIO_CONVERSION_PASSES_H
