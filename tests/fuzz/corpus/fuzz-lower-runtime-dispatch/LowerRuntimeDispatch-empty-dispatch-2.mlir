
// The empty dispatch and an explicit one naming the same address share the
// session.

module @same_as_explicit {
  func.func @main(%n: i64) {
    catalyst.runtime_call "implicit"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    catalyst.runtime_call "explicit"(%n) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

