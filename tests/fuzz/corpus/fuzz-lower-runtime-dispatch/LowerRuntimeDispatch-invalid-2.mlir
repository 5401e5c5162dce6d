
// An empty dispatch in a program with two executors: ambiguous; both are
// listed.

module {
  func.func @two_executors(%n: i64) {
    // expected-error @+1 {{'catalyst.runtime_call' op has an empty dispatch, an ambiguous executor: the program has 2 executors (127.0.0.1:4711, 10.0.0.2:5000); write the address in dispatch}}
    catalyst.runtime_call "sample"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    return
  }
  module @a attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
  module @b attributes {catalyst.target = {}, catalyst.dispatch = {address = "10.0.0.2:5000"}} {
  }
}

