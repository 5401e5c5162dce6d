// samples/custom-call.mlir parses, verifies and prints to a fixed point, and
// the default pipeline's dispatch turns its custom_call into executor.call.
//
// RUN: executor-opt %S/../../../samples/custom-call.mlir > %t.1
// RUN: executor-opt %t.1 > %t.2
// RUN: diff %t.1 %t.2
// RUN: executor-opt %S/../../../samples/custom-call.mlir -mlir-print-op-generic | executor-opt > %t.3
// RUN: diff %t.1 %t.3
// RUN: FileCheck %s --input-file=%t.1
// RUN: rm -rf %t.ws
// RUN: executor-opt %S/../../../samples/custom-call.mlir \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --cross-compile-targets=workspace=%t.ws --dispatch-executor-targets \
// RUN:   | FileCheck %s --check-prefix=DISPATCHED

// CHECK: module @host {
// CHECK: %[[SQ:.+]] = catalyst.launch_kernel @compute::@square(%{{.+}}) : (tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT: %{{.+}} = catalyst.custom_call fn("sample_moments") (%[[SQ]]) {backend_config = {dispatch = ""}} : (tensor<8xf64>) -> tensor<2xf64>

// DISPATCHED-LABEL: func.func @main()
// DISPATCHED: %[[S:.+]] = executor.open("ADDR:PORT") : !executor.session
// DISPATCHED: %[[SQ:.+]] = executor.launch %[[S]]("square", "{{.*}}/compute/compute.o") (%{{.+}}) : !executor.session, (memref<8xf64>) -> memref<8xf64>
// DISPATCHED: %[[OUT:.+]] = memref.alloc() {{.*}}: memref<2xf64>
// DISPATCHED: executor.call %[[S]]("sample_moments") (%[[SQ]], %[[OUT]]) {num_input_args = 1 : i32} : !executor.session, (memref<8xf64>, memref<2xf64>) -> ()
// DISPATCHED-NOT: catalyst.
