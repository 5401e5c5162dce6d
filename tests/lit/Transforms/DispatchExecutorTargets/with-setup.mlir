// With a setup() function, dispatch-executor-targets opens one session per
// unique address and ships every object once, there; every other function
// that launches opens its own session of the same address at its entry
// (open is idempotent per address in the runtime) and ships nothing.
//
// RUN: executor-opt %s --dispatch-executor-targets | FileCheck %s
// RUN: executor-opt %s --dispatch-executor-targets | FileCheck %s --check-prefix=ONCE
// RUN: executor-opt %s --dispatch-executor-targets | FileCheck %s --check-prefix=GONE

// Nothing of the targets is left, and no session is closed.
// GONE-NOT: catalyst.
// GONE-NOT: module @compute
// GONE-NOT: executor.close

// Three objects, three sends, all in setup(); none anywhere after it (the
// objects of @compute and @other are launched three times in all).
// ONCE: func.func @setup() {
// ONCE-COUNT-3: executor.send_binary
// ONCE-NEXT: call @init_host
// ONCE-NOT: executor.send_binary

// CHECK-LABEL: module @prog {
// CHECK-NEXT:  func.func private @init_host()
// CHECK-NEXT:  func.func @setup() {
// CHECK-NEXT:    %[[S1:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    %[[S2:.+]] = executor.open("10.0.0.2:5000") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S1]]("/ws/compute/compute.o") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S1]]("/ws/other/other.o") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S2]]("/ws/far/far.o") : !executor.session
// What setup() did before stays after.
// CHECK-NEXT:    call @init_host() : () -> ()
// CHECK-NEXT:    return
// CHECK-NEXT:  }

// Each launching function opens the addresses it uses, once each.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[X:[^:]+]]: memref<4xf64>
// CHECK-NEXT:    %[[M:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    %[[A:.+]] = executor.launch %[[M]]("square", "/ws/compute/compute.o"){{ ?}}(%[[X]]) : !executor.session, (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:    %[[B:.+]] = executor.launch %[[M]]("square", "/ws/compute/compute.o"){{ ?}}(%[[A]]) : !executor.session, (memref<4xf64>) -> memref<4xf64>
// Two targets on one address share the session.
// CHECK-NEXT:    %[[C:.+]] = executor.launch %[[M]]("scale", "/ws/other/other.o"){{ ?}}(%[[B]]) : !executor.session, (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:    return %[[C]] : memref<4xf64>

// CHECK-LABEL: func.func @elsewhere(
// CHECK-NEXT:    %[[E:.+]] = executor.open("10.0.0.2:5000") : !executor.session
// CHECK-NEXT:    %[[R:.+]]:2 = executor.launch %[[E]]("pair", "/ws/far/far.o"){{ ?}}(%{{.+}}, %{{.+}}) : !executor.session, (memref<4xf64>, memref<2x2xi32>) -> (memref<f32>, memref<3xi64>)
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1

// A function without launches is left alone.
// CHECK-LABEL: func.func @untouched(
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:}
module @prog {
  func.func private @init_host()
  func.func @setup() {
    func.call @init_host() : () -> ()
    return
  }
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %a = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %b = catalyst.launch_kernel @compute::@square(%a) : (memref<4xf64>) -> memref<4xf64>
    %c = catalyst.launch_kernel @other::@scale(%b) : (memref<4xf64>) -> memref<4xf64>
    return %c : memref<4xf64>
  }
  func.func @elsewhere(%x: memref<4xf64>, %y: memref<2x2xi32>) -> (memref<f32>, memref<3xi64>) {
    %r:2 = catalyst.launch_kernel @far::@pair(%x, %y) : (memref<4xf64>, memref<2x2xi32>) -> (memref<f32>, memref<3xi64>)
    return %r#0, %r#1 : memref<f32>, memref<3xi64>
  }
  func.func @untouched() {
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
  module @other attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/other/other.o"} {
    func.func private @scale(memref<4xf64>) -> memref<4xf64>
  }
  module @far attributes {catalyst.target = {}, catalyst.dispatch = {address = "10.0.0.2:5000"}, catalyst.object_file = "/ws/far/far.o"} {
    func.func private @pair(memref<4xf64>, memref<2x2xi32>) -> (memref<f32>, memref<3xi64>)
  }
}
