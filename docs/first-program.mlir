// A host that runs one kernel on an executor: y = x * x + 1.
module @host {
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
  memref.global "private" constant @x : memref<4xf64> = dense<[1.0, 2.0, 3.0, 4.0]>

  func.func @setup() {   // dispatch-executor-targets opens the session here
    return
  }

  func.func @main() {
    %x = memref.get_global @x : memref<4xf64>
    %y = catalyst.launch_kernel @kernels::@square_plus_one(%x) : (memref<4xf64>) -> memref<4xf64>
    %u = memref.cast %y : memref<4xf64> to memref<*xf64>
    func.call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    return
  }

  // Compiled on its own and run on the executor the program maps ADDR:PORT to.
  module @kernels attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @square_plus_one(%x: memref<4xf64>) -> memref<4xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant 1.0 : f64
      %y = memref.alloc() : memref<4xf64>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf64>
        %sq = arith.mulf %v, %v : f64
        %r = arith.addf %sq, %one : f64
        memref.store %r, %y[%i] : memref<4xf64>
      }
      return %y : memref<4xf64>
    }
  }
}
