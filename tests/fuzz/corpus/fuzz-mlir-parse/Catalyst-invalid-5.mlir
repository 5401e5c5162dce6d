
// A module that is neither a target nor dispatched is lowered with the host,
// so a launch into it could never run.
module {
  module @gpu {
    func.func @vadd() {
      return
    }
  }
  func.func @plain_module() {
    // expected-error @+1 {{'catalyst.launch_kernel' op callee @gpu::@vadd: module @gpu is neither a catalyst.target nor dispatched, so nothing compiles it for a launch; add catalyst.target = {} to it (or catalyst.dispatch with catalyst.object_file for an object compiled elsewhere)}}
    catalyst.launch_kernel @gpu::@vadd() : () -> ()
    return
  }
}

