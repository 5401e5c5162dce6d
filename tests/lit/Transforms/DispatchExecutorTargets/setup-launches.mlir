// setup() may launch kernels itself: it uses the session it opens and the
// object it ships.
//
// RUN: executor-opt %s --dispatch-executor-targets | FileCheck %s

// CHECK-LABEL: func.func @setup() {
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S]]("/ws/compute/compute.o") : !executor.session
// CHECK-NEXT:    executor.launch %[[S]]("warmup", "/ws/compute/compute.o"){{ ?}}() : !executor.session, () -> (){{$}}
// CHECK-NEXT:    return
// CHECK-NOT:   executor.open
// CHECK-NOT:   executor.send_binary
module @prog {
  func.func @setup() {
    catalyst.launch_kernel @compute::@warmup() : () -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @warmup()
  }
}
