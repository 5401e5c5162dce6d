
module @mod attributes {catalyst.target = {}} {
  func.func @entry() {
    return
  }
}
func.func @missing_function() {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @mod::@nope: module @mod has no function @nope}}
  catalyst.launch_kernel @mod::@nope() : () -> ()
  return
}

