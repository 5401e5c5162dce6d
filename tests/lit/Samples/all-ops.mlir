// samples/all-ops.mlir parses, verifies and prints to a fixed point:
// print-parse-print is identical, also through the generic form.
//
// RUN: executor-opt %S/../../../samples/all-ops.mlir > %t.1
// RUN: executor-opt %t.1 > %t.2
// RUN: diff %t.1 %t.2
// RUN: executor-opt %S/../../../samples/all-ops.mlir -mlir-print-op-generic | executor-opt > %t.3
// RUN: diff %t.1 %t.3
// RUN: FileCheck %s --input-file=%t.1

// CHECK-LABEL: func.func @main()
// CHECK: %[[X:.+]] = memref.alloc() : memref<4xf64>
// CHECK: %[[S:.+]] = executor.open("ADDR:PORT") : !executor.session
// CHECK-NEXT: executor.send_binary %[[S]]("/tmp/executor-studio/compute/compute.o") : !executor.session
// CHECK-NEXT: %[[T:.+]] = executor.launch_async %[[S]]("warmup", "/tmp/executor-studio/compute/compute.o") : !executor.session -> !executor.token
// CHECK-NEXT: %[[SQ:.+]] = executor.launch %[[S]]("square", "/tmp/executor-studio/compute/compute.o") (%[[X]]) : !executor.session, (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT: %[[OUT:.+]] = memref.alloc() : memref<4xf64>
// CHECK-NEXT: executor.call %[[S]]("scale_into") (%[[SQ]], %[[OUT]]) {num_input_args = 1 : i32} : !executor.session, (memref<4xf64>, memref<4xf64>) -> ()
// CHECK-NEXT: executor.await %[[T]] : !executor.token
// CHECK-NEXT: executor.close %[[S]] : !executor.session
// CHECK: call @printMemrefF64
// CHECK: call @printMemrefF64
