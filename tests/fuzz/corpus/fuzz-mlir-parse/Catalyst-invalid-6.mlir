
// Catalyst's cross-compile-targets leaves a dispatched module with
// catalyst.dispatch and catalyst.object_file only: launches into it verify.
module {
  module @compiled attributes {catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/tmp/compiled.o"} {
    func.func @entry() {
      return
    }
  }
  func.func @dispatched_without_target() {
    catalyst.launch_kernel @compiled::@entry() : () -> ()
    // expected-error @+1 {{'catalyst.launch_kernel' op callee @compiled::@nope: module @compiled has no function @nope}}
    catalyst.launch_kernel @compiled::@nope() : () -> ()
    return
  }
}

