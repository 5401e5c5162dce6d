//===- EmitCode.cpp - the one way to emit code with a TargetMachine -------===//
#include "ExecutorStudio/Support/EmitCode.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

llvm::Error executor_studio::emitCode(llvm::TargetMachine &machine,
                                      llvm::Module &module,
                                      llvm::raw_pwrite_stream &os,
                                      llvm::CodeGenFileType type) {
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr, type))
    return llvm::createStringError(
        "LLVM's target for " + machine.getTargetTriple().str() +
        " cannot emit " +
        (type == llvm::CodeGenFileType::AssemblyFile ? "assembly"
                                                     : "object files"));
  codegen.run(module);
  return llvm::Error::success();
}

llvm::Error executor_studio::emitCode(llvm::TargetMachine &machine,
                                      llvm::Module &module,
                                      llvm::raw_fd_ostream &file,
                                      llvm::CodeGenFileType type) {
  if (file.supportsSeeking())
    return emitCode(machine, module, static_cast<llvm::raw_pwrite_stream &>(file),
                    type);
  // The object writer seeks: a file that cannot (standard output, a pipe)
  // gets the code whole from a buffer when it is done, as llc does.
  llvm::buffer_ostream buffered(file);
  return emitCode(machine, module, buffered, type);
}
