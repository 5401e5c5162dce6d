// Local targets: every launch becomes a func.call of one private declaration
// (a matching host declaration is reused), objects are appended to the
// root's catalyst.object_files and to {workspace}/{root}.objects in order.
//
// RUN: rm -rf %t
// RUN: executor-opt %s --cross-compile-targets="workspace=%t" | FileCheck %s
// RUN: cat %t/prog.objects | FileCheck %s --check-prefix=MANIFEST -DWS=%t

// CHECK-LABEL: module @prog
// CHECK-SAME:    catalyst.object_files = ["/prebuilt/runtime.o", "{{.*}}/first/first.o", "{{.*}}/second/second.o"]
// New declarations go first; the existing one is kept and not duplicated.
// CHECK-NEXT:    func.func private @dec(memref<4xf64>) -> memref<4xf64>{{$}}
// CHECK-NEXT:    func.func private @inc(memref<4xf64>) -> memref<4xf64>{{$}}
// CHECK-NOT:     func.func private @inc(
// CHECK-LABEL:   func.func @main(
// CHECK-SAME:        %[[X:[^:]+]]: memref<4xf64>
// CHECK-NEXT:      %[[A:.+]] = call @inc(%[[X]]) : (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:      %[[B:.+]] = call @inc(%[[A]]) : (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:      %[[C:.+]] = call @dec(%[[B]]) : (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:      return %[[C]]
// CHECK-LABEL:   func.func @other(
// CHECK-NEXT:      call @dec(
// CHECK-NOT:     catalyst.launch_kernel
// CHECK-NOT:     catalyst.target
// CHECK-NOT:     func.func private @inc(
// CHECK-NOT:     func.func private @dec(

// MANIFEST: {{^}}[[WS]]/first/first.o{{$}}
// MANIFEST-NEXT: {{^}}[[WS]]/second/second.o{{$}}
// MANIFEST-NOT: {{.}}

module @prog attributes {catalyst.object_files = ["/prebuilt/runtime.o"]} {
  func.func private @inc(memref<4xf64>) -> memref<4xf64>
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %a = catalyst.launch_kernel @first::@inc(%x) : (memref<4xf64>) -> memref<4xf64>
    %b = catalyst.launch_kernel @first::@inc(%a) : (memref<4xf64>) -> memref<4xf64>
    %c = catalyst.launch_kernel @second::@dec(%b) : (memref<4xf64>) -> memref<4xf64>
    return %c : memref<4xf64>
  }
  func.func @other(%x: memref<4xf64>) -> memref<4xf64> {
    %c = catalyst.launch_kernel @second::@dec(%x) : (memref<4xf64>) -> memref<4xf64>
    return %c : memref<4xf64>
  }
  module @first attributes {catalyst.target} {
    func.func @inc(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
  module @second attributes {catalyst.target = {}} {
    func.func @dec(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
}
