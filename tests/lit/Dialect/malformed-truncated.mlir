// A file cut off in the middle of an op (no newline at the end) gets an
// error on its last line, not a crash.
//
// RUN: not executor-opt %s 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK: malformed-truncated.mlir:10:47: error: expected '"' in string literal

func.func @main(%x: memref<4xf64>) {
  %s = executor.open("ADDR:PORT") : !executor.session
  %r = executor.launch %s("square", "/tmp/ws/c