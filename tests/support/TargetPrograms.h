//===- TargetPrograms.h - programs with kernels, for recording tests -*- C++ -*-===//
//
// What the recorder's, the op history's, the worker's and the studio's tests
// record through cross-compile-targets: hosts that launch kernels of an
// AArch64 target (`@arm`, dispatched) and of this host (`@local`), the
// kernels written once (mapKernel), and the workspace the pass compiles
// the targets in, removed after the test.
//
//===----------------------------------------------------------------------===//
#ifndef TESTS_SUPPORT_TARGETPROGRAMS_H
#define TESTS_SUPPORT_TARGETPROGRAMS_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <string>

namespace executor_test {

/// `func.func @name(<leadingArgs>%x: memref<4xf64>) -> memref<4xf64>`,
/// indented for a target module: a new memref whose element i is
/// `op %v, operand` of element i of %x (%v), in an scf.for. Its op is on the
/// eighth line of the text, at column 14.
inline std::string mapKernel(llvm::StringRef name, llvm::StringRef op,
                             llvm::StringRef operand = "%v",
                             llvm::StringRef leadingArgs = "") {
  return ("    func.func @" + name + "(" + leadingArgs +
          "%x: memref<4xf64>) -> memref<4xf64> {\n"
          "      %c0 = arith.constant 0 : index\n"
          "      %c1 = arith.constant 1 : index\n"
          "      %c4 = arith.constant 4 : index\n"
          "      %y = memref.alloc() : memref<4xf64>\n"
          "      scf.for %i = %c0 to %c4 step %c1 {\n"
          "        %v = memref.load %x[%i] : memref<4xf64>\n"
          "        %s = " +
          op + " %v, " + operand +
          " : f64\n"
          "        memref.store %s, %y[%i] : memref<4xf64>\n"
          "      }\n"
          "      return %y : memref<4xf64>\n"
          "    }\n")
      .str();
}

/// The AArch64 target module, dispatched to 10.0.0.9:4711, with
/// `@twice` (mapKernel with `op`).
inline std::string armTarget(llvm::StringRef op) {
  return "  module @arm attributes {catalyst.target = {triple = "
         "\"aarch64-unknown-linux-gnu\"}, catalyst.dispatch = {address = "
         "\"10.0.0.9:4711\"}} {\n" +
         mapKernel("twice", op) + "  }\n";
}

/// A host that launches @arm::@twice (armTarget(op)) and then @local::@same
/// (a target for this host's triple that returns its input). The op of
/// @twice is at line 15, column 14.
inline std::string twoTargetProgram(llvm::StringRef op) {
  return "module @prog {\n"
         "  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {\n"
         "    %a = catalyst.launch_kernel @arm::@twice(%x) : (memref<4xf64>) -> "
         "memref<4xf64>\n"
         "    %b = catalyst.launch_kernel @local::@same(%a) : (memref<4xf64>) -> "
         "memref<4xf64>\n"
         "    return %b : memref<4xf64>\n"
         "  }\n" +
         armTarget(op) +
         "  module @local attributes {catalyst.target = {}} {\n"
         "    func.func @same(%x: memref<4xf64>) -> memref<4xf64> {\n"
         "      return %x : memref<4xf64>\n"
         "    }\n"
         "  }\n"
         "}\n";
}

/// A host that launches @arm::@twice (armTarget(op)) only.
inline std::string armKernelProgram(llvm::StringRef op) {
  return "module @prog {\n"
         "  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {\n"
         "    %y = catalyst.launch_kernel @arm::@twice(%x) : (memref<4xf64>) -> "
         "memref<4xf64>\n"
         "    return %y : memref<4xf64>\n"
         "  }\n" +
         armTarget(op) + "}\n";
}

/// A new directory for cross-compile-targets' `workspace`, removed with
/// this object.
struct Workspace {
  explicit Workspace(llvm::StringRef prefix = "workspace") {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory(prefix, path));
  }
  ~Workspace() { llvm::sys::fs::remove_directories(path); }
  Workspace(const Workspace &) = delete;
  Workspace &operator=(const Workspace &) = delete;
  /// `builtin.module(cross-compile-targets{workspace=...}<after>)`: `after`
  /// is ",cse" or "" or more passes after it.
  std::string crossCompilePipeline(llvm::StringRef after = "") const {
    return ("builtin.module(cross-compile-targets{workspace=" + path + "}" +
            after + ")")
        .str();
  }
  llvm::SmallString<128> path;
};

} // namespace executor_test

#endif // TESTS_SUPPORT_TARGETPROGRAMS_H
