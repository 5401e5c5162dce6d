// The kernel of executor-runtime-bench's "kernels with debug info" rows:
// @k::@twice (y = 2 * x on memref<4xf64>), compiled by the build into
// debug/k/k.o with cross-compile-targets{debug=true} (executor-compile -g)
// and into plain/k/k.o without, so the bench launches the same kernel both
// ways on one executor.
module @host {
  module @k attributes {catalyst.target = {}} {
    func.func @twice(%x: memref<4xf64>) -> memref<4xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : memref<4xf64>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf64>
        %d = arith.addf %v, %v : f64
        memref.store %d, %y[%i] : memref<4xf64>
      }
      return %y : memref<4xf64>
    }
  }
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @k::@twice(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
}
