
// Two target modules on one address are still one executor; local targets
// (no catalyst.dispatch) do not count.

module @shared_address {
  func.func @main(%n: i64) {
    catalyst.runtime_call "a"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    catalyst.runtime_call "b"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    return
  }
  module @one attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
  }
  module @two attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
  }
  module @local attributes {catalyst.target = {}} {
  }
}

