
module {
  func.func @main(%x: memref<4xf64>) -> tensor<4xf64> {
    // expected-error @+1 {{'catalyst.launch_kernel' op result of type 'tensor<4xf64>' cannot come back from an executor: launches into a dispatched target return memrefs only}}
    %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> tensor<4xf64>
    return %y : tensor<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}

