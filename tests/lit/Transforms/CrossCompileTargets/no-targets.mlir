// Without catalyst.target modules the pass changes nothing and needs no
// workspace; with a workspace it does not create it.
//
// RUN: executor-opt %s --cross-compile-targets | FileCheck %s
// RUN: rm -rf %t
// RUN: executor-opt %s --cross-compile-targets="workspace=%t" | FileCheck %s
// RUN: not ls %t

// CHECK-LABEL: module @prog {
// CHECK-NEXT:    func.func @main(%[[X:.+]]: memref<4xf64>) -> memref<4xf64> {
// CHECK-NEXT:      %[[Y:.+]] = call @helper(%[[X]]) : (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:      return %[[Y]] : memref<4xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func private @helper(memref<4xf64>) -> memref<4xf64>
// A nested module that is not a target is left alone.
// CHECK-NEXT:    module @plain {
// CHECK-NEXT:      func.func @inner() {
// CHECK-NEXT:        return
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NOT:   catalyst.object_file
module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = func.call @helper(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  func.func private @helper(memref<4xf64>) -> memref<4xf64>
  module @plain {
    func.func @inner() {
      return
    }
  }
}
