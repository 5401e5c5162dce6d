
// Every bad launch is reported.

module {
  func.func @main(%x: tensor<4xf64>, %m: memref<4xf64>) {
    // expected-error @+1 {{operand of type 'tensor<4xf64>' cannot be sent to an executor}}
    %a = catalyst.launch_kernel @compute::@square(%x) : (tensor<4xf64>) -> memref<4xf64>
    // expected-error @+1 {{is marked catalyst.nonblocking}}
    catalyst.launch_kernel @compute::@consume(%m) {catalyst.nonblocking} : (memref<4xf64>) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
    func.func private @consume(memref<4xf64>)
  }
}
