
// In setup().

module @in_setup {
  func.func private @init()
  func.func @setup() {
    func.call @init() : () -> ()
    %s = executor.open("127.0.0.1:4711") : !executor.session
    return
  }
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %r = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %r : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}
