
// A custom_call without dispatch leaves the program as it is.
module @host_only {
  func.func @main(%m: memref<4xf64>) {
    catalyst.custom_call fn("lapack") (%m) : (memref<4xf64>) -> ()
    return
  }
}
