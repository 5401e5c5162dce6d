// Issue 39: with targets compiled on several threads, a failing target's
// diagnostics still come in the targets' order, at the lines of this file,
// as with one thread: the first failing target stops the pass.
//
// RUN: rm -rf %t
// RUN: not executor-opt %s --cross-compile-targets="workspace=%t/a jobs=3" -o /dev/null 2> %t.threads
// RUN: not executor-opt %s --cross-compile-targets="workspace=%t/a" --mlir-disable-threading -o /dev/null 2> %t.one
// RUN: cmp %t.threads %t.one
// RUN: FileCheck %s < %t.threads

module @host {
  func.func @main(%x: memref<8xf64>) {
    %a = catalyst.launch_kernel @ok::@k(%x) : (memref<8xf64>) -> memref<8xf64>
    %b = catalyst.launch_kernel @bad1::@k1(%x) : (memref<8xf64>) -> memref<8xf64>
    %c = catalyst.launch_kernel @bad2::@k2(%x) : (memref<8xf64>) -> memref<8xf64>
    return
  }
  module @ok attributes {catalyst.target = {}} {
    func.func @k(%x: memref<8xf64>) -> memref<8xf64> {
      return %x : memref<8xf64>
    }
  }
  // CHECK: parallel-errors.mlir:[[@LINE+1]]:3: error: {{.*}} has catalyst.target pipeline "nonexistent-pass" that does not parse
  module @bad1 attributes {catalyst.target = {pipeline = "nonexistent-pass"}} {
    func.func @k1(%x: memref<8xf64>) -> memref<8xf64> {
      return %x : memref<8xf64>
    }
  }
  // CHECK-NOT: bad2
  module @bad2 attributes {catalyst.target = {pipeline = "builtin.module(nonexistent-pass)"}} {
    func.func @k2(%x: memref<8xf64>) -> memref<8xf64> {
      return %x : memref<8xf64>
    }
  }
}
