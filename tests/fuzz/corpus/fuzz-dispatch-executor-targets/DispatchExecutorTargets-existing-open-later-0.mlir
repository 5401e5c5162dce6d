// An executor.open of the address already in the entry block, but not first,
// is reused and moved to the start, so the session dominates its uses.
//

// The open follows other operations.

module @after_other_ops {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %c0 = arith.constant 0 : index
    %s = executor.open("127.0.0.1:4711") : !executor.session
    %r = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    executor.close %s : !executor.session
    return %r : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}

