// Issue 40: scalar operands and results (i1, i8, i16, i32, i64, index, f16,
// bf16, f32, f64) of a launch into a dispatched target go to executor.launch
// as they are, in order, beside the memrefs; the runtime passes them by
// pointer to the kernel's wrapper.
//
// RUN: executor-opt %s --dispatch-executor-targets | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[A:[^:]+]]: f64, %[[N:[^:]+]]: i32, %[[X:[^:]+]]: memref<8xf64>
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[S]]("/ws/compute/compute.o") : !executor.session
// CHECK-NEXT:    %[[R:.+]]:2 = executor.launch %[[S]]("axpy", "/ws/compute/compute.o"){{ ?}}(%[[A]], %[[N]], %[[X]]) : !executor.session, (f64, i32, memref<8xf64>) -> (memref<8xf64>, f64)
// CHECK-NEXT:    %[[T:.+]] = executor.launch %[[S]]("every", "/ws/compute/compute.o"){{ ?}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !executor.session, (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) -> i1
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1, %[[T]] : memref<8xf64>, f64, i1
// CHECK-NOT:   module @compute
module {
  func.func @main(%a: f64, %n: i32, %x: memref<8xf64>, %b: i1, %c: i8, %d: i16,
                  %e: i64, %f: index, %g: f16, %h: bf16, %k: f32)
      -> (memref<8xf64>, f64, i1) {
    %y, %sum = catalyst.launch_kernel @compute::@axpy(%a, %n, %x) : (f64, i32, memref<8xf64>) -> (memref<8xf64>, f64)
    %t = catalyst.launch_kernel @compute::@every(%b, %c, %d, %n, %e, %f, %g, %h, %k, %a) : (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) -> i1
    return %y, %sum, %t : memref<8xf64>, f64, i1
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @axpy(f64, i32, memref<8xf64>) -> (memref<8xf64>, f64)
    func.func private @every(i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) -> i1
  }
}
