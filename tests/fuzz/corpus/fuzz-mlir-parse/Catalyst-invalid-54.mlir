
//===----------------------------------------------------------------------===//
// catalyst.nonblocking
//===----------------------------------------------------------------------===//

module @mod attributes {catalyst.target = {}} {
  func.func @warmup() {
    return
  }
}
func.func @nonblocking_not_unit() {
  // expected-error @+1 {{'catalyst.launch_kernel' op 'catalyst.nonblocking' must be a unit attribute}}
  catalyst.launch_kernel @mod::@warmup() {catalyst.nonblocking = true} : () -> ()
  return
}

