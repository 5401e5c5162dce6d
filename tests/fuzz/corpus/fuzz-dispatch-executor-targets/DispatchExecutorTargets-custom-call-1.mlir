
// An empty dispatch binds to the only executor; the dispatched module has
// catalyst.dispatch and catalyst.object_file but no catalyst.target (what
// Catalyst's cross-compile-targets leaves). One session serves the launch
// and the call.
module @inherit {
  func.func @setup() {
    return
  }
  func.func @main() -> tensor<1xf64> {
    %x = arith.constant dense<1.0> : tensor<4xf64>
    catalyst.launch_kernel @target::@compute() : () -> ()
    %r = catalyst.custom_call fn("norm") (%x) {backend_config = {dispatch = ""}} : (tensor<4xf64>) -> tensor<1xf64>
    return %r : tensor<1xf64>
  }
  module @target attributes {catalyst.object_file = "/tmp/target.o", catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func public @compute() {
      return
    }
  }
}

