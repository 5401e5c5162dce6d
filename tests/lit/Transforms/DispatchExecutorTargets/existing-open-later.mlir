// An executor.open of the address already in the entry block, but not first,
// is reused and moved to the start, so the session dominates its uses.
//
// RUN: executor-opt %s -split-input-file --dispatch-executor-targets | FileCheck %s

// The open follows other operations.

// CHECK-LABEL: module @after_other_ops
// CHECK:       func.func @main(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S]]("/ws/compute/compute.o") : !executor.session
// CHECK-NOT:     executor.open
// CHECK:         executor.launch %[[S]]("square", "/ws/compute/compute.o")
// CHECK:         executor.close %[[S]]
module @after_other_ops {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %c0 = arith.constant 0 : index
    %s = executor.open("127.0.0.1:4711") : !executor.session
    %r = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    executor.close %s : !executor.session
    return %r : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}

// -----

// The open follows the launch.

// CHECK-LABEL: module @after_launch
// CHECK:       func.func @main(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S]]("/ws/compute/compute.o") : !executor.session
// CHECK-NEXT:    executor.launch %[[S]]("square", "/ws/compute/compute.o")
module @after_launch {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %r = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %s = executor.open("127.0.0.1:4711") : !executor.session
    executor.close %s : !executor.session
    return %r : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}

// -----

// In setup().

// CHECK-LABEL: module @in_setup
// CHECK:       func.func @setup(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S]]("/ws/compute/compute.o") : !executor.session
module @in_setup {
  func.func private @init()
  func.func @setup() {
    func.call @init() : () -> ()
    %s = executor.open("127.0.0.1:4711") : !executor.session
    return
  }
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %r = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %r : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}
