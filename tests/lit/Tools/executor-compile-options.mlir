// The driver's options: --print-pipeline, --pipeline, --emit, --summary,
// --save-ir-after-each, --workspace, --entry.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: executor-compile --print-pipeline --workspace=%t/ws %s | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: builtin.module(lower-runtime-dispatch,one-shot-bufferize{{.*}},cross-compile-targets{workspace={{.*}}/ws},dispatch-executor-targets,convert-executor-to-llvm,{{.*}}reconcile-unrealized-casts)
//
// RUN: executor-compile %s --pipeline='builtin.module(canonicalize)' --emit=mlir -o %t/out.mlir
// RUN: FileCheck %s --check-prefix=CANON < %t/out.mlir
// CANON: func.func @compute() -> i32
// CANON-NEXT: %[[C:.*]] = arith.constant 42 : i32
// CANON-NEXT: return %[[C]]
//
// RUN: executor-compile %s --emit=llvm -o %t/out.ll --workspace=%t/ws2
// RUN: FileCheck %s --check-prefix=LLVM < %t/out.ll
// LLVM: define {{.*}}i32 @compute()
//
// RUN: executor-compile %s --emit=obj -o %t/out.o --workspace=%t/ws3
// RUN: llvm-nm %t/out.o | FileCheck %s --check-prefix=OBJ
// OBJ: T compute
//
// RUN: executor-compile %s --entry=compute -o %t/prog --workspace=%t/ws4 --summary --save-ir-after-each=changed | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: pass summary ({{[0-9]+}} passes
// SUMMARY: convert-func-to-llvm {{.*}} ms  changed
// RUN: ls %t/ws4/ir | FileCheck %s --check-prefix=SAVED
// SAVED: 00_input.mlir
// SAVED: convert-func-to-llvm.mlir
// RUN: sh -c '%t/prog; test $? -eq 42'
//
// RUN: not executor-compile %s --entry=nothere -o %t/prog2 --workspace=%t/ws5 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: the host has no function @nothere to start the executable in (see --entry)
//
// RUN: not executor-compile %s --save-ir-after-each=sometimes -o %t/p3 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: --save-ir-after-each: unknown save mode 'sometimes'; use pipeline, changed or pass

module @prog {
  func.func @compute() -> i32 {
    %a = arith.constant 40 : i32
    %b = arith.constant 2 : i32
    %c = arith.addi %a, %b : i32
    return %c : i32
  }
}
