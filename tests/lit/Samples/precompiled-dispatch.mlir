// samples/precompiled-dispatch.mlir parses, verifies and prints to a fixed
// point; cross-compile-targets leaves its module (no catalyst.target) alone
// and dispatch-executor-targets ships the given object.
//
// RUN: executor-opt %S/../../../samples/precompiled-dispatch.mlir > %t.1
// RUN: executor-opt %t.1 > %t.2
// RUN: diff %t.1 %t.2
// RUN: executor-opt %S/../../../samples/precompiled-dispatch.mlir -mlir-print-op-generic | executor-opt > %t.3
// RUN: diff %t.1 %t.3
// RUN: FileCheck %s --input-file=%t.1
// RUN: rm -rf %t.ws
// RUN: executor-opt %S/../../../samples/precompiled-dispatch.mlir --one-shot-bufferize \
// RUN:   --cross-compile-targets=workspace=%t.ws --dispatch-executor-targets \
// RUN:   | FileCheck %s --check-prefix=DISPATCHED

// CHECK: module @prebuilt attributes {catalyst.dispatch = {address = "ADDR:PORT"}, catalyst.object_file = "precompiled.o"} {
// CHECK-NEXT: func.func private @cube(memref<4xf64>) -> memref<4xf64>

// DISPATCHED-LABEL: func.func @setup()
// DISPATCHED-NEXT: %[[S:.+]] = executor.open("ADDR:PORT") : !executor.session
// DISPATCHED-NEXT: executor.send_binary %[[S]]("precompiled.o") : !executor.session
// DISPATCHED-LABEL: func.func @main()
// DISPATCHED: executor.launch %{{.+}}("cube", "precompiled.o") (%{{.+}}) : !executor.session, (memref<4xf64>) -> memref<4xf64>
// DISPATCHED-NOT: module @prebuilt
