
// An open of the address that is not followed by the send yet: the send is
// added after it.

module @reuse_open {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %s = executor.open("127.0.0.1:4711") : !executor.session
    %r = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %r : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}
