
// A nonblocking launch runs a () -> () entry.

module {
  func.func @main(%x: memref<4xf64>) {
    // expected-error @+1 {{'catalyst.launch_kernel' op nonblocking dispatch requires a '()->()' callee, but @compute::@consume is marked catalyst.nonblocking and takes arguments or returns results: executor.launch_async runs entries without either}}
    catalyst.launch_kernel @compute::@consume(%x) {catalyst.nonblocking} : (memref<4xf64>) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @consume(memref<4xf64>)
  }
}

