// The reply of every executor.call is checked in the generated code: one
// module-local helper, __executor_check_call_reply(what, status, got,
// expected), stops the program (fflush, dprintf to fd 2, exit(1)) when
// call_wrapper's status is not 0 or the reply's size is not what the
// output buffers take. It needs only libc, so programs run with any
// implementation of Catalyst's C ABI. `what` names the call and where it is.
//
// RUN: executor-opt %s --convert-executor-to-llvm | FileCheck %s
// RUN: executor-opt %s --convert-executor-to-llvm | FileCheck %s --check-prefix=ONCE
// RUN: executor-opt %s --convert-executor-to-llvm --finalize-memref-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// The descriptions: file:line:col of the op, found inside a named location
// too; none without a file location.
// CHECK-DAG: llvm.mlir.global private constant @{{.+}}("executor.call(\22histogram\22) at host.mlir:12:5\00")
// CHECK-DAG: llvm.mlir.global private constant @{{.+}}("executor.call(\22histogram\22) at kernels.mlir:40:7\00")
// CHECK-DAG: llvm.mlir.global private constant @{{.+}}("executor.call(\22reset\22)\00")
// CHECK-DAG: llvm.mlir.global private constant @[[STATUSMSG:.+]]("executor runtime error: %s: __catalyst__executor__call_wrapper returned %d\0A\00")
// CHECK-DAG: llvm.mlir.global private constant @[[SIZEMSG:.+]]("executor runtime error: %s: the reply has %zu bytes but the output buffers take %zu; the function must reply with exactly its declared result and out buffers, in order\0A\00")
// CHECK-DAG: llvm.func @fflush(!llvm.ptr) -> i32
// CHECK-DAG: llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.func @exit(i32)

// One helper for all the calls, private to the module.
// ONCE:     llvm.func internal @__executor_check_call_reply(
// ONCE-NOT: llvm.func {{.*}}@__executor_check_call_reply

// CHECK-LABEL: llvm.func internal @__executor_check_call_reply(
// CHECK-SAME:      %[[WHAT:[^:]+]]: !llvm.ptr, %[[STATUS:[^:]+]]: i32, %[[GOT:[^:]+]]: i64, %[[EXPECTED:[^:]+]]: i64)
// CHECK-NEXT:    %[[ZERO:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[OK:.+]] = llvm.icmp "eq" %[[STATUS]], %[[ZERO]] : i32
// CHECK-NEXT:    llvm.cond_br %[[OK]], ^[[SIZE:[^,]+]], ^[[BADSTATUS:[^ ]+]]
// CHECK-NEXT:  ^[[SIZE]]:
// CHECK-NEXT:    %[[SAME:.+]] = llvm.icmp "eq" %[[GOT]], %[[EXPECTED]] : i64
// CHECK-NEXT:    llvm.cond_br %[[SAME]], ^[[DONE:[^,]+]], ^[[BADSIZE:[^ ]+]]
// CHECK-NEXT:  ^[[DONE]]:
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  ^[[BADSTATUS]]:
// CHECK-NEXT:    %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @fflush(%[[NULL]])
// CHECK-NEXT:    %[[FD:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    %[[FMT:.+]] = llvm.mlir.addressof @[[STATUSMSG]]
// CHECK-NEXT:    llvm.call @dprintf(%[[FD]], %[[FMT]], %[[WHAT]], %[[STATUS]]) vararg(!llvm.func<i32 (i32, ptr, ...)>)
// CHECK-NEXT:    %[[ONE:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.call @exit(%[[ONE]])
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  ^[[BADSIZE]]:
// CHECK-NEXT:    %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @fflush(%[[NULL]])
// CHECK-NEXT:    %[[FD:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    %[[FMT:.+]] = llvm.mlir.addressof @[[SIZEMSG]]
// CHECK-NEXT:    llvm.call @dprintf(%[[FD]], %[[FMT]], %[[WHAT]], %[[GOT]], %[[EXPECTED]]) vararg(!llvm.func<i32 (i32, ptr, ...)>)
// CHECK-NEXT:    %[[ONE:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.call @exit(%[[ONE]])
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  }

// Each call checks its own reply against its own outputs: 4 + 32 bytes,
// then 0.
// CHECK-LABEL: func.func @two_calls(
// CHECK:         llvm.call @__catalyst__executor__call_wrapper(
// CHECK:         llvm.call @__executor_check_call_reply(
// CHECK:         llvm.call @__catalyst__executor__call_wrapper(
// CHECK:         llvm.call @__executor_check_call_reply(
// CHECK-LABEL: func.func @no_file_location(
// CHECK:         llvm.call @__executor_check_call_reply(

// It is valid LLVM IR, and the helper is internal.
// LLVM: define internal void @__executor_check_call_reply(ptr %0, i32 %1, i64 %2, i64 %3)
// LLVM: call i32 (i32, ptr, ...) @dprintf(i32 2,
// LLVM: call void @exit(i32 1)
// LLVM: declare i32 @__catalyst__executor__call_wrapper(i64, ptr, ptr, i64, ptr, ptr)

func.func @two_calls(%n: memref<1xi64>, %r: memref<1xi32>, %h: memref<4xf64>) {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  executor.call %s("histogram")(%n, %r, %h) {num_input_args = 1 : i32} : !executor.session, (memref<1xi64>, memref<1xi32>, memref<4xf64>) -> () loc("host.mlir":12:5)
  executor.call %s("histogram")(%n) : !executor.session, (memref<1xi64>) -> () loc("inlined"("kernels.mlir":40:7))
  return
}

func.func @no_file_location() {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  executor.call %s("reset")() {num_input_args = 0 : i32} : !executor.session, () -> () loc(unknown)
  return
}
