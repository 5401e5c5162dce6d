// matrix.mlir: a host program launching 2-D kernels of a local target, for
// the result inspector (heatmap, table, line plot).
module @host {
  func.func @main(%x: memref<3x4xf64>) -> (memref<3x4xf64>, memref<3xf64>) {
    %y = catalyst.launch_kernel @grid::@wave(%x) : (memref<3x4xf64>) -> memref<3x4xf64>
    %s = catalyst.launch_kernel @grid::@row_sums(%y) : (memref<3x4xf64>) -> memref<3xf64>
    return %y, %s : memref<3x4xf64>, memref<3xf64>
  }
  module @grid attributes {catalyst.target = {}} {
    // y[i][j] = x[i][j] * x[i][j] / 10
    func.func @wave(%x: memref<3x4xf64>) -> memref<3x4xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %tenth = arith.constant 1.000000e-01 : f64
      %y = memref.alloc() : memref<3x4xf64>
      scf.for %i = %c0 to %c3 step %c1 {
        scf.for %j = %c0 to %c4 step %c1 {
          %v = memref.load %x[%i, %j] : memref<3x4xf64>
          %sq = arith.mulf %v, %v : f64
          %s = arith.mulf %sq, %tenth : f64
          memref.store %s, %y[%i, %j] : memref<3x4xf64>
        }
      }
      return %y : memref<3x4xf64>
    }
    // s[i] = sum_j x[i][j]
    func.func @row_sums(%x: memref<3x4xf64>) -> memref<3xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.000000e+00 : f64
      %s = memref.alloc() : memref<3xf64>
      scf.for %i = %c0 to %c3 step %c1 {
        %t = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f64) {
          %v = memref.load %x[%i, %j] : memref<3x4xf64>
          %n = arith.addf %acc, %v : f64
          scf.yield %n : f64
        }
        memref.store %t, %s[%i] : memref<3xf64>
      }
      return %s : memref<3xf64>
    }
  }
}
