// A kernel that writes far outside its memref: the crash report names it
// and (compiled with -g) this file's line of the faulting store.
module @host {
  func.func @setup() {
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %far = arith.constant 1.0e+12 : f64
    %x = memref.alloc() : memref<4xf64>
    memref.store %far, %x[%c0] : memref<4xf64>
    %y = catalyst.launch_kernel @kernels::@oob(%x) : (memref<4xf64>) -> memref<4xf64>
    memref.dealloc %x : memref<4xf64>
    return
  }

  module @kernels attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    // y[x[0]] = 1, with x[0] (from the host) far past the end of y.
    func.func @oob(%x: memref<4xf64>) -> memref<4xf64> {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.000000e+00 : f64
      %y = memref.alloc() : memref<4xf64>
      %v = memref.load %x[%c0] : memref<4xf64>
      %i64 = arith.fptosi %v : f64 to i64
      %i = arith.index_cast %i64 : i64 to index
      memref.store %one, %y[%i] : memref<4xf64> // FAULT
      return %y : memref<4xf64>
    }
  }
}
