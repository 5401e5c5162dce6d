
// A scalar operand.

module {
  func.func @main(%x: f64) {
    // expected-error @+1 {{'catalyst.launch_kernel' op operand of type 'f64' cannot be sent to an executor}}
    catalyst.launch_kernel @compute::@scalar(%x) : (f64) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @scalar(f64)
  }
}

