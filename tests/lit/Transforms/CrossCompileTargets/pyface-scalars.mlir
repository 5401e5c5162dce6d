// Issue 40: the _catalyst_pyface_<entry> wrapper of a dispatched kernel
// with scalar arguments and results. The runtime passes an array of
// pointers, one per argument: a memref's points at its descriptor, which
// the ciface takes by pointer; a scalar's points at its value, which the
// wrapper loads and passes by value. Results come back through the leading
// pointer: as the ciface's packed struct when it takes one, else stored by
// the wrapper (a lone scalar result; an i1 as a byte).
//
// RUN: rm -rf %t
// RUN: executor-opt %s --cross-compile-targets="workspace=%t save-ir-after-each=pipeline opt-level=0" -o /dev/null
// RUN: FileCheck %s < %t/compute/compute.ll

// CHECK-LABEL: define void @_catalyst_pyface_axpy(ptr %0, ptr %1)
// CHECK-NEXT:    %[[S0:.+]] = getelementptr ptr, ptr %1, i32 0
// CHECK-NEXT:    %[[P0:.+]] = load ptr, ptr %[[S0]]
// CHECK-NEXT:    %[[A:.+]] = load double, ptr %[[P0]]
// CHECK-NEXT:    %[[S1:.+]] = getelementptr ptr, ptr %1, i32 1
// CHECK-NEXT:    %[[P1:.+]] = load ptr, ptr %[[S1]]
// CHECK-NEXT:    %[[N:.+]] = load i32, ptr %[[P1]]
// CHECK-NEXT:    %[[S2:.+]] = getelementptr ptr, ptr %1, i32 2
// CHECK-NEXT:    %[[X:.+]] = load ptr, ptr %[[S2]]
// CHECK-NEXT:    call void @_mlir_ciface_axpy(ptr %0, double %[[A]], i32 %[[N]], ptr %[[X]])
// CHECK-NEXT:    ret void

// CHECK-LABEL: define void @_catalyst_pyface_flag(ptr %0, ptr %1)
// CHECK:         %[[B:.+]] = load i1, ptr
// CHECK:         %[[I:.+]] = load i64, ptr
// CHECK-NEXT:    %[[R:.+]] = call i1 @_mlir_ciface_flag(i1 %[[B]], i64 %[[I]])
// CHECK-NEXT:    store i1 %[[R]], ptr %0
// CHECK-NEXT:    ret void

// CHECK-LABEL: define void @_catalyst_pyface_half(ptr %0, ptr %1)
// CHECK:         %[[H:.+]] = load double, ptr
// CHECK-NEXT:    %[[R:.+]] = call double @_mlir_ciface_half(double %[[H]])
// CHECK-NEXT:    store double %[[R]], ptr %0
// CHECK-NEXT:    ret void
module @prog {
  func.func @main(%a: f64, %n: i32, %x: memref<8xf64>, %b: i1, %i: index) -> (memref<8xf64>, f64, i1, f64) {
    %y, %s = catalyst.launch_kernel @compute::@axpy(%a, %n, %x) : (f64, i32, memref<8xf64>) -> (memref<8xf64>, f64)
    %f = catalyst.launch_kernel @compute::@flag(%b, %i) : (i1, index) -> i1
    %h = catalyst.launch_kernel @compute::@half(%a) : (f64) -> f64
    return %y, %s, %f, %h : memref<8xf64>, f64, i1, f64
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func @axpy(%a: f64, %n: i32, %x: memref<8xf64>) -> (memref<8xf64>, f64) {
      return %x, %a : memref<8xf64>, f64
    }
    func.func @flag(%b: i1, %i: index) -> i1 {
      return %b : i1
    }
    func.func @half(%a: f64) -> f64 {
      return %a : f64
    }
  }
}
