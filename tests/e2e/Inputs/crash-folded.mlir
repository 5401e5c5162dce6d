// A kernel whose store through a null pointer LLVM folds away at -O2: the
// code after it is unreachable, so nothing of the kernel is left. Kernels
// are compiled so that such code traps where it was (TrapUnreachable), and
// the crash report names the kernel and what leads there.
module @host {
  func.func @setup() {
    return
  }

  func.func @main() {
    %x = memref.alloc() : memref<4xf64>
    %y = catalyst.launch_kernel @kernels::@null_store(%x) : (memref<4xf64>) -> memref<4xf64>
    memref.dealloc %x : memref<4xf64>
    return
  }

  module @kernels attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @null_store(%x: memref<4xf64>) -> memref<4xf64> {
      %null = llvm.mlir.zero : !llvm.ptr
      %one = arith.constant 1.000000e+00 : f64
      llvm.store %one, %null : f64, !llvm.ptr // FAULT
      return %x : memref<4xf64>
    }
  }
}
