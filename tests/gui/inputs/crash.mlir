// A host with two kernels: @kernels::@twice doubles its input, and
// @kernels::@crash writes to address 8, which ends its executor session
// with SIGSEGV. executor-studio must show the error and open a new session.
module @host {
  func.func @main() {
    %x = memref.alloc() : memref<4xf64>
    %y = catalyst.launch_kernel @kernels::@twice(%x) : (memref<4xf64>) -> memref<4xf64>
    catalyst.launch_kernel @kernels::@crash(%x) : (memref<4xf64>) -> ()
    memref.dealloc %x : memref<4xf64>
    return
  }

  module @kernels attributes {catalyst.target = {}} {
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

    func.func @crash(%x: memref<4xf64>) {
      %addr = llvm.mlir.constant(8 : i64) : i64
      %p = llvm.inttoptr %addr : i64 to !llvm.ptr
      %v = llvm.mlir.constant(1 : i32) : i32
      llvm.store volatile %v, %p : i32, !llvm.ptr
      return
    }
  }
}
