// Each run of cross-compile-targets writes {workspace}/{root}.objects anew, so
// running it twice on one workspace lists every local object once.
//
// RUN: rm -rf %t
// RUN: executor-opt %s --cross-compile-targets="workspace=%t" -o /dev/null
// RUN: executor-opt %s --cross-compile-targets="workspace=%t" -o /dev/null
// RUN: cat %t/prog.objects | FileCheck %s -DWS=%t

// CHECK: {{^}}[[WS]]/local/local.o{{$}}
// CHECK-NOT: {{.}}

module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @local::@id(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @local attributes {catalyst.target} {
    func.func @id(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
}
