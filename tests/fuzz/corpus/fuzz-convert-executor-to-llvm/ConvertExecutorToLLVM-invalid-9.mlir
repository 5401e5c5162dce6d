
// A symbol of another kind under a runtime function's name.

func.func private @__catalyst__executor__open(!llvm.ptr) -> i64
func.func @open_it() {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  return
}
