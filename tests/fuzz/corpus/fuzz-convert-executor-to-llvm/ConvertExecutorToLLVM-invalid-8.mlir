
// The out_size of call_wrapper is a size_t *, not a size.

llvm.func @__catalyst__executor__call_wrapper(i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64)
func.func @call_it(%s: !executor.session) {
  executor.call %s("reset")() {num_input_args = 0 : i32} : !executor.session, () -> ()
  return
}

