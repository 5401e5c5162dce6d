
// Without any dispatched call the pass does nothing, even when the program
// has no executor.

module @nothing_to_do {
  func.func @main(%n: i64) {
    catalyst.runtime_call "host"(%n) {c_params = ["i64"]} : (i64) -> ()
    return
  }
}
