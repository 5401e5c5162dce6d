// A misspelled callee: executor-compile prints the verifier's "did you
// mean", the same words the language server shows (issue 40).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: not executor-compile %s -o %t/prog 2>&1 | FileCheck %s

module @host {
  func.func @main(%a: memref<4xf64>) {
    // CHECK: executor-compile-did-you-mean.mlir:[[@LINE+1]]:5: error: 'catalyst.launch_kernel' op callee @vec::@vaddd: module @vec has no function @vaddd; did you mean @vec::@vadd?
    catalyst.launch_kernel @vec::@vaddd(%a) : (memref<4xf64>) -> ()
    return
  }
  module @vec attributes {catalyst.target = {}} {
    func.func @vadd(%x: memref<4xf64>) {
      return
    }
  }
}
