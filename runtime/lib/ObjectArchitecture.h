//===- ObjectArchitecture.h - an object against the executor's triple -*- C++ -*-===//
#ifndef EXECUTORRUNTIME_LIB_OBJECTARCHITECTURE_H
#define EXECUTORRUNTIME_LIB_OBJECTARCHITECTURE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/TargetParser/Triple.h"

namespace executor_studio::runtime {
/// Refuses, before anything is linked, an object that the executor cannot
/// run: one whose architecture (or object format) is not that of
/// `executorTriple` (what ORC's setup message reported). The error names the
/// object, both triples, the executor (`executorLabel`, e.g.
/// "ADDR:PORT (127.0.0.1:7000)") and the fix:
///   compute.o is x86_64-unknown-linux-gnu but executor ADDR:PORT
///   (127.0.0.1:7000) runs aarch64-unknown-linux-gnu: set catalyst.target =
///   {triple = "aarch64-unknown-linux-gnu"} on @compute
/// An object that is not an object file at all passes: the linker says so.
llvm::Error checkObjectArchitecture(llvm::MemoryBufferRef object,
                                    const llvm::Triple &executorTriple,
                                    llvm::StringRef executorLabel);

/// The triple `object` was compiled for, as far as the object says (its
/// architecture and format; the OS and environment of `like` when the
/// format is the same), or an error when it is not an object file.
llvm::Expected<llvm::Triple> objectTriple(llvm::MemoryBufferRef object,
                                          const llvm::Triple &like);
} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_LIB_OBJECTARCHITECTURE_H
