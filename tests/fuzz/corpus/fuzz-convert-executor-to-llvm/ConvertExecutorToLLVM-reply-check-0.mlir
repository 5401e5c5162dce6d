// The reply of every executor.call is checked in the generated code: one
// module-local helper, __executor_check_call_reply(what, status, got,
// call_wrapper's status is not 0 or the reply's size is not what the
// output buffers take. It needs only libc, so programs run with any
// implementation of Catalyst's C ABI. `what` names the call and where it is.
//

// The descriptions: file:line:col of the op, found inside a named location
// too; none without a file location.

// One helper for all the calls, private to the module.
// ONCE:     llvm.func internal @__executor_check_call_reply(
// ONCE-NOT: llvm.func {{.*}}@__executor_check_call_reply


// Each call checks its own reply against its own outputs: 4 + 32 bytes,
// then 0.

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
