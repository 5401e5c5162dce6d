// The IR after cross-compile-targets (snapshot 2 of the default pipeline)
// of a small host program, edited: the dispatch address is a real one now.
module @host {
  func.func @setup() {
    return
  }
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @compute attributes {catalyst.dispatch = {address = "10.0.0.2:7000"}, catalyst.object_file = "/tmp/ws/compute/compute.o", catalyst.target = {}} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}
