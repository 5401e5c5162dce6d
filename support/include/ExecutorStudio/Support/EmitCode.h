//===- EmitCode.h - the one way to emit code with a TargetMachine -*- C++ -*-===//
//
// Every part that turns an LLVM module into an object file or assembly does
// it here: the compiler driver (the host object), cross-compile-targets (each
// target's object and the assembly it records) and the runtime (the services
// it links into an ORC executor that has none). LLVM's legacy code generation
// pipeline, as llc runs it. It lives in support/, not core/, because the
// runtime is built without core (EXECUTOR_STUDIO_EXECUTOR_ONLY); it needs
// LLVM's target libraries, which every program that calls it links (libLLVM).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_SUPPORT_EMITCODE_H
#define EXECUTORSTUDIO_SUPPORT_EMITCODE_H

#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
class TargetMachine;
class raw_fd_ostream;
class raw_pwrite_stream;
} // namespace llvm

namespace executor_studio {

/// Generates `module`'s code for `machine`'s target as `type` (an object
/// file or assembly) into `os`. Code generation changes `module`; the caller
/// that needs it afterwards passes a copy (llvm::CloneModule). Fails, naming
/// the triple, when the target cannot emit files of `type`.
llvm::Error emitCode(llvm::TargetMachine &machine, llvm::Module &module,
                     llvm::raw_pwrite_stream &os, llvm::CodeGenFileType type);
/// The same into a file; one that cannot seek (standard output, a pipe) gets
/// the code whole from a buffer, as llc does.
llvm::Error emitCode(llvm::TargetMachine &machine, llvm::Module &module,
                     llvm::raw_fd_ostream &file, llvm::CodeGenFileType type);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_SUPPORT_EMITCODE_H
