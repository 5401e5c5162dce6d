// samples/runtime-call.mlir parses, verifies and prints to a fixed point:
// print-parse-print is identical, also through the generic form.
//
// RUN: executor-opt %S/../../../samples/runtime-call.mlir > %t.1
// RUN: executor-opt %t.1 > %t.2
// RUN: diff %t.1 %t.2
// RUN: executor-opt %S/../../../samples/runtime-call.mlir -mlir-print-op-generic | executor-opt > %t.3
// RUN: diff %t.1 %t.3
// RUN: FileCheck %s --input-file=%t.1

// CHECK: module @host {
// CHECK-LABEL: func.func @main()
// CHECK: %[[R:.+]]:2 = catalyst.runtime_call "sample_histogram"(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) {c_params = ["i64", "ptr", "str", "f64", "out"], c_strings = ["z-basis"], dispatch = ""} : (i64, i64, f32, tensor<8xf64>) -> (i32, tensor<8xf64>)
// CHECK-NEXT: %{{.+}} = catalyst.launch_kernel @compute::@normalize(%[[R]]#1) : (tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT: arith.sitofp %[[R]]#0 : i32 to f64
// CHECK: module @compute attributes {catalyst.dispatch = {address = "ADDR:PORT"}, catalyst.target = {}} {
// CHECK: func.func @normalize(%{{.+}}: memref<8xf64>) -> memref<8xf64>
