// element-types.mlir: kernels on f32, f64 and i32 memrefs, a 2-D memref and
// a scalar passed as memref<1xf32>, in a target module compiled for aarch64
// and dispatched to the executor at ADDR:PORT. It prints
//   f32 [1.5, 3, 4.5, 6] (x * 1.5), i32 [11, 22, 33, 44] (a + b) and
//   f64 3x2 [[1, 4], [2, 5], [3, 6]] (the transpose of [[1, 2, 3], [4, 5, 6]]).
module @host {
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

  func.func @setup() {
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %f15 = arith.constant 1.500000e+00 : f32
    %factor = memref.alloc() : memref<1xf32>
    memref.store %f15, %factor[%c0] : memref<1xf32>

    // x = [1, 2, 3, 4] (f32), a = [1, 2, 3, 4], b = [10, 20, 30, 40] (i32)
    %x = memref.alloc() : memref<4xf32>
    %a = memref.alloc() : memref<4xi32>
    %b = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %one = arith.constant 1 : i32
      %ten = arith.constant 10 : i32
      %v = arith.addi %i32, %one : i32
      %w = arith.muli %v, %ten : i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %x[%i] : memref<4xf32>
      memref.store %v, %a[%i] : memref<4xi32>
      memref.store %w, %b[%i] : memref<4xi32>
    }
    // m = [[1, 2, 3], [4, 5, 6]] (f64)
    %m = memref.alloc() : memref<2x3xf64>
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c3 step %c1 {
        %row = arith.muli %r, %c3 : index
        %k = arith.addi %row, %c : index
        %k1 = arith.addi %k, %c1 : index
        %k64 = arith.index_cast %k1 : index to i64
        %v = arith.sitofp %k64 : i64 to f64
        memref.store %v, %m[%r, %c] : memref<2x3xf64>
      }
    }

    %scaled = catalyst.launch_kernel @compute::@scale_f32(%x, %factor) : (memref<4xf32>, memref<1xf32>) -> memref<4xf32>
    %sum = catalyst.launch_kernel @compute::@add_i32(%a, %b) : (memref<4xi32>, memref<4xi32>) -> memref<4xi32>
    %t = catalyst.launch_kernel @compute::@transpose(%m) : (memref<2x3xf64>) -> memref<3x2xf64>

    %scaled_u = memref.cast %scaled : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%scaled_u) : (memref<*xf32>) -> ()
    %sum_u = memref.cast %sum : memref<4xi32> to memref<*xi32>
    func.call @printMemrefI32(%sum_u) : (memref<*xi32>) -> ()
    %t_u = memref.cast %t : memref<3x2xf64> to memref<*xf64>
    func.call @printMemrefF64(%t_u) : (memref<*xf64>) -> ()
    return
  }

  module @compute attributes {catalyst.target = {triple = "aarch64-unknown-linux-gnu"}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @scale_f32(%x: memref<4xf32>, %factor: memref<1xf32>) -> memref<4xf32> {
      %c0 = arith.constant 0 : index
      %s = memref.load %factor[%c0] : memref<1xf32>
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : memref<4xf32>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf32>
        %p = arith.mulf %v, %s : f32
        memref.store %p, %y[%i] : memref<4xf32>
      }
      return %y : memref<4xf32>
    }

    func.func @add_i32(%a: memref<4xi32>, %b: memref<4xi32>) -> memref<4xi32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : memref<4xi32>
      scf.for %i = %c0 to %c4 step %c1 {
        %u = memref.load %a[%i] : memref<4xi32>
        %v = memref.load %b[%i] : memref<4xi32>
        %s = arith.addi %u, %v : i32
        memref.store %s, %y[%i] : memref<4xi32>
      }
      return %y : memref<4xi32>
    }

    func.func @transpose(%m: memref<2x3xf64>) -> memref<3x2xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %t = memref.alloc() : memref<3x2xf64>
      scf.for %r = %c0 to %c2 step %c1 {
        scf.for %c = %c0 to %c3 step %c1 {
          %v = memref.load %m[%r, %c] : memref<2x3xf64>
          memref.store %v, %t[%c, %r] : memref<3x2xf64>
        }
      }
      return %t : memref<3x2xf64>
    }

  }
}
