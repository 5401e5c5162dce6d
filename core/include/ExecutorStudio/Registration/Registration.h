//===- Registration.h - everything the front ends register ------*- C++ -*-===//
//
// executor-opt, executor-compile, the language server and the GUI register
// the same dialects, interfaces and passes through these two calls.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_REGISTRATION_REGISTRATION_H
#define EXECUTORSTUDIO_REGISTRATION_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace executor_studio {
/// executor, catalyst and the upstream dialects the pipeline uses (func,
/// arith, math, memref, tensor, bufferization, linalg, scf, cf, index, llvm,
/// affine, ub), with the bufferization and LLVM-translation interfaces.
void registerAllDialects(mlir::DialectRegistry &registry);
/// Our four passes, the default pipeline, and the upstream passes it uses.
void registerAllPasses();
/// Makes `--version` of a tool built on llvm::cl print Executor Studio's
/// version above LLVM's. Call before parsing the command line.
void addVersionPrinter();
/// "Executor Studio X.Y.Z (LLVM A.B.C)".
const char *getVersionString();
} // namespace executor_studio

#endif // EXECUTORSTUDIO_REGISTRATION_REGISTRATION_H
