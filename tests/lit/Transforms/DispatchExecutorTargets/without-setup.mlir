// Without a setup() function (or with only a declaration of one), each host
// function that launches opens its addresses and ships the objects it uses
// at its entry, once each.
//
// RUN: executor-opt %s -split-input-file --dispatch-executor-targets | FileCheck %s

// CHECK-LABEL: module @prog {
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[X:[^:]+]]: memref<4xf64>
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S]]("/ws/compute/compute.o") : !executor.session
// Two targets on one address: one open, one send per object.
// CHECK-NEXT:    executor.send_binary %[[S]]("/ws/other/other.o") : !executor.session
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.+]] = executor.launch %[[S]]("square", "/ws/compute/compute.o"){{ ?}}(%[[X]]) : !executor.session, (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:    %[[B:.+]] = executor.launch %[[S]]("square", "/ws/compute/compute.o"){{ ?}}(%[[A]]) : !executor.session, (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:    %[[C:.+]] = executor.launch %[[S]]("scale", "/ws/other/other.o"){{ ?}}(%[[B]]) : !executor.session, (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:    memref.load
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    return %[[C]]

// A second function does the same for what it uses only.
// CHECK-LABEL: func.func @helper(
// CHECK-NEXT:    %[[H:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[H]]("/ws/other/other.o") : !executor.session
// CHECK-NEXT:    %[[D:.+]] = executor.launch %[[H]]("scale", "/ws/other/other.o")
// CHECK-NEXT:    return %[[D]]

// A launch nested in a loop: the session is opened at the function entry.
// CHECK-LABEL: func.func @in_loop(
// CHECK-NEXT:    %[[L:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[L]]("/ws/compute/compute.o") : !executor.session
// CHECK:         scf.for
// CHECK-NEXT:      executor.launch %[[L]]("square", "/ws/compute/compute.o")
// CHECK-NOT:       executor.open
// CHECK-NOT:       executor.send_binary

// The declared setup is not touched.
// CHECK-LABEL: func.func private @setup()
// CHECK-NOT:   module @compute
// CHECK-NOT:   module @other
module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %c0 = arith.constant 0 : index
    %a = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %b = catalyst.launch_kernel @compute::@square(%a) : (memref<4xf64>) -> memref<4xf64>
    %c = catalyst.launch_kernel @other::@scale(%b) : (memref<4xf64>) -> memref<4xf64>
    %v = memref.load %x[%c0] : memref<4xf64>
    memref.store %v, %c[%c0] : memref<4xf64>
    return %c : memref<4xf64>
  }
  func.func @helper(%x: memref<4xf64>) -> memref<4xf64> {
    %d = catalyst.launch_kernel @other::@scale(%x) : (memref<4xf64>) -> memref<4xf64>
    return %d : memref<4xf64>
  }
  func.func @in_loop(%x: memref<4xf64>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    }
    return
  }
  func.func private @setup()
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
  module @other attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/other/other.o"} {
    func.func private @scale(memref<4xf64>) -> memref<4xf64>
  }
}

// -----

// A session and object a function has at its start already (an earlier
// pass, e.g. lower-runtime-dispatch, put them there) are reused.

// CHECK-LABEL: module @reuse {
// CHECK:       func.func @main(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S]]("/ws/compute/compute.o") : !executor.session
// CHECK-NEXT:    %[[R:.+]] = executor.launch %[[S]]("square", "/ws/compute/compute.o")
// CHECK-NEXT:    return %[[R]]
module @reuse {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %s = executor.open("127.0.0.1:4711") : !executor.session
    executor.send_binary %s("/ws/compute/compute.o") : !executor.session
    %r = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %r : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}

// -----

// An open of the address that is not followed by the send yet: the send is
// added after it.

// CHECK-LABEL: module @reuse_open {
// CHECK:       func.func @main(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S]]("/ws/compute/compute.o") : !executor.session
// CHECK-NEXT:    %[[R:.+]] = executor.launch %[[S]]("square", "/ws/compute/compute.o")
module @reuse_open {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %s = executor.open("127.0.0.1:4711") : !executor.session
    %r = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %r : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}
