// crash.mlir: @compute::@crash, compiled for aarch64, reads through a null
// pointer on the executor (SIGSEGV there); @compute::@fine runs before it.
module @host {
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

  func.func @setup() {
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.000000e+00 : f64
    %x = memref.alloc() : memref<1xf64>
    memref.store %one, %x[%c0] : memref<1xf64>
    %y = catalyst.launch_kernel @compute::@fine(%x) : (memref<1xf64>) -> memref<1xf64>
    %y_u = memref.cast %y : memref<1xf64> to memref<*xf64>
    func.call @printMemrefF64(%y_u) : (memref<*xf64>) -> ()
    %z = catalyst.launch_kernel @compute::@crash(%x) : (memref<1xf64>) -> memref<1xf64>
    %z_u = memref.cast %z : memref<1xf64> to memref<*xf64>
    func.call @printMemrefF64(%z_u) : (memref<*xf64>) -> ()
    return
  }

  module @compute attributes {catalyst.target = {triple = "aarch64-unknown-linux-gnu"}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    // y = x + x
    func.func @fine(%x: memref<1xf64>) -> memref<1xf64> {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<1xf64>
      %s = arith.addf %v, %v : f64
      %y = memref.alloc() : memref<1xf64>
      memref.store %s, %y[%c0] : memref<1xf64>
      return %y : memref<1xf64>
    }

    // y = *(double *)0
    func.func @crash(%x: memref<1xf64>) -> memref<1xf64> {
      %c0 = arith.constant 0 : index
      %null = llvm.mlir.zero : !llvm.ptr
      %v = llvm.load volatile %null : !llvm.ptr -> f64
      %y = memref.alloc() : memref<1xf64>
      memref.store %v, %y[%c0] : memref<1xf64>
      return %y : memref<1xf64>
    }
  }
}
