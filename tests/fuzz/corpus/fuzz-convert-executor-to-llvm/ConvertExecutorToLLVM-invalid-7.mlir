
// A runtime function already declared, with another type than the C ABI's
// (Catalyst's ExecutorCAPI.h): close returns int64_t.

llvm.func @__catalyst__executor__close(i64)
func.func @close_it(%s: !executor.session) {
  executor.close %s : !executor.session
  return
}

