// A launch marked catalyst.nonblocking becomes executor.launch_async; its
// executor.await is placed right before the terminator of the launch's
// block, so the host work that follows overlaps with the kernel.
//


// In a loop body: launched and awaited in each iteration.

// Two nonblocking launches: both run before either is awaited, awaited in
// launch order.
module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    catalyst.launch_kernel @compute::@warmup() {catalyst.nonblocking} : () -> ()
    %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %c0 = arith.constant 0 : index
    %v = memref.load %y[%c0] : memref<4xf64>
    return %y : memref<4xf64>
  }
  func.func @loop(%x: memref<4xf64>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f64
    scf.for %i = %c0 to %n step %c1 {
      catalyst.launch_kernel @compute::@warmup() {catalyst.nonblocking} : () -> ()
      memref.store %f, %x[%c0] : memref<4xf64>
    }
    return
  }
  func.func @two() {
    catalyst.launch_kernel @compute::@warmup() {catalyst.nonblocking} : () -> ()
    catalyst.launch_kernel @compute::@warmup() {catalyst.nonblocking} : () -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @warmup()
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}
