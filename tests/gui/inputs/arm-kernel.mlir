// A host with one kernel dispatched to an AArch64 executor.

module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @arm::@twice(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @arm attributes {catalyst.target = {triple = "aarch64-unknown-linux-gnu"}, catalyst.dispatch = {address = "10.0.0.9:4711"}} {
    func.func @twice(%x: memref<4xf64>) -> memref<4xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : memref<4xf64>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf64>
        %s = arith.addf %v, %v : f64
        memref.store %s, %y[%i] : memref<4xf64>
      }
      return %y : memref<4xf64>
    }
  }
}
