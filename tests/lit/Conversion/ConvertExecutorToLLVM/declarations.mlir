// A runtime function the module declares already, with the C ABI's type
// (Catalyst's ExecutorCAPI.h), is called as it is: not declared twice.
// (invalid.mlir has the declarations with other types.)
//
// RUN: executor-opt %s --convert-executor-to-llvm | FileCheck %s

// CHECK-COUNT-1: llvm.func @__catalyst__executor__launch_async(
// CHECK-NOT:     llvm.func @__catalyst__executor__launch_async(
llvm.func @__catalyst__executor__launch_async(i64, !llvm.ptr, !llvm.ptr) -> i64

// CHECK-LABEL: func.func @declared_already(
// CHECK:         llvm.call @__catalyst__executor__launch_async({{.*}}) : (i64, !llvm.ptr, !llvm.ptr) -> i64
func.func @declared_already(%s: !executor.session) {
  %t = executor.launch_async %s("warmup", "/ws/compute/compute.o") : !executor.session -> !executor.token
  return
}

// A module without executor ops is not checked: a declaration of another
// type stays, as nothing is lowered into calls of it.
// RUN: echo 'llvm.func @__catalyst__executor__close(i64)' | executor-opt --convert-executor-to-llvm | FileCheck %s --check-prefix=UNUSED
// UNUSED: llvm.func @__catalyst__executor__close(i64){{$}}
