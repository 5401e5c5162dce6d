// dispatch = "" binds to the program's single executor: the address in the
// catalyst.dispatch of its target modules.
//

// An explicit address still gets its own session.
// The target module is left for the later passes.
module @single {
  func.func @main(%n: i64) -> i32 {
    %r = catalyst.runtime_call "sample"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> i32
    catalyst.runtime_call "elsewhere"(%n) {c_params = ["i64"], dispatch = "127.0.0.1:1"} : (i64) -> ()
    return %r : i32
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "10.0.0.7:4711"}} {
    func.func @kernel() {
      return
    }
  }
}

