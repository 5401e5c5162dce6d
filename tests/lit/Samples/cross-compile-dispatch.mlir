// samples/cross-compile-dispatch.mlir parses, verifies and prints to a fixed
// point: print-parse-print is identical, also through the generic form.
//
// RUN: executor-opt %S/../../../samples/cross-compile-dispatch.mlir > %t.1
// RUN: executor-opt %t.1 > %t.2
// RUN: diff %t.1 %t.2
// RUN: executor-opt %S/../../../samples/cross-compile-dispatch.mlir -mlir-print-op-generic | executor-opt > %t.3
// RUN: diff %t.1 %t.3
// RUN: FileCheck %s --input-file=%t.1

// CHECK: module @host {
// CHECK: func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
// CHECK: func.func @setup() {
// CHECK-NEXT: return
// CHECK-LABEL: func.func @main()
// CHECK: %[[SQ:.+]] = catalyst.launch_kernel @compute::@square(%{{.+}}) : (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT: %[[SC:.+]] = catalyst.launch_kernel @compute::@scale(%[[SQ]]) : (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT: %{{.+}} = catalyst.launch_kernel @local::@sum(%[[SC]]) : (memref<4xf64>) -> memref<1xf64>
// CHECK-COUNT-3: call @printMemrefF64(%{{.+}}) : (memref<*xf64>) -> ()
// CHECK: module @compute attributes {catalyst.dispatch = {address = "ADDR:PORT"}, catalyst.target = {}} {
// CHECK: func.func @square(%{{.+}}: memref<4xf64>) -> memref<4xf64>
// CHECK: linalg.generic
// CHECK: func.func @scale(%{{.+}}: memref<4xf64>) -> memref<4xf64>
// CHECK: module @local attributes {catalyst.target = {}} {
// CHECK: func.func @sum(%{{.+}}: memref<4xf64>) -> memref<1xf64>
