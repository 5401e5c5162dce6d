
// A local target (no catalyst.dispatch) is not an executor.

module {
  func.func @local_target_only(%n: i64) {
    // expected-error @+1 {{has an empty dispatch but the program has no executor address}}
    catalyst.runtime_call "sample"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    return
  }
  module @local attributes {catalyst.target = {}} {
  }
}

