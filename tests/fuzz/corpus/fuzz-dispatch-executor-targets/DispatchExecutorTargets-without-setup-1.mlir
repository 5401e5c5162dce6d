
// A session and object a function has at its start already (an earlier
// pass, e.g. lower-runtime-dispatch, put them there) are reused.

module @reuse {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %s = executor.open("127.0.0.1:4711") : !executor.session
    executor.send_binary %s("/ws/compute/compute.o") : !executor.session
    %r = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %r : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}

