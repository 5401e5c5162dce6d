// Without catalyst.dispatch modules the pass changes nothing: launches into
// local targets, runtime calls, executor ops and other nested modules stay.
//
// RUN: executor-opt %s --dispatch-executor-targets | FileCheck %s
// RUN: executor-opt %s --dispatch-executor-targets | FileCheck %s --check-prefix=NONE

// NONE-NOT: executor.send_binary
// NONE-NOT: executor.launch

// CHECK-LABEL: module @prog {
// CHECK-NEXT:    func.func @setup() {
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @main(%[[X:.+]]: memref<4xf64>) -> memref<4xf64> {
// CHECK-NEXT:      %[[Y:.+]] = catalyst.launch_kernel @local::@square(%[[X]]) : (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:      %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:      executor.close %[[S]] : !executor.session
// CHECK-NEXT:      return %[[Y]] : memref<4xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    module @local attributes {catalyst.object_file = "/ws/local/local.o", catalyst.target = {}} {
// CHECK-NEXT:      func.func private @square(memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    module @plain {
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module @prog {
  func.func @setup() {
    return
  }
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @local::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %s = executor.open("127.0.0.1:4711") : !executor.session
    executor.close %s : !executor.session
    return %y : memref<4xf64>
  }
  module @local attributes {catalyst.target = {}, catalyst.object_file = "/ws/local/local.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
  module @plain {
  }
}
