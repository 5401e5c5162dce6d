
// Launches take and return memrefs only: bufferize first.

module {
  func.func @main(%x: tensor<4xf64>) -> memref<4xf64> {
    // expected-error @+1 {{'catalyst.launch_kernel' op operand of type 'tensor<4xf64>' cannot be sent to an executor: launches into a dispatched target take memrefs only (run one-shot-bufferize first, and pass scalars as memref<1xT>)}}
    %y = catalyst.launch_kernel @compute::@square(%x) : (tensor<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}

