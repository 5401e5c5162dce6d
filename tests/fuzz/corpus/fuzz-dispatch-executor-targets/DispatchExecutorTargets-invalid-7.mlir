
module {
  func.func @main() -> memref<4xf64> {
    // expected-error @+1 {{'catalyst.launch_kernel' op nonblocking dispatch requires a '()->()' callee, but @compute::@produce is marked catalyst.nonblocking}}
    %y = catalyst.launch_kernel @compute::@produce() {catalyst.nonblocking} : () -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @produce() -> memref<4xf64>
  }
}

