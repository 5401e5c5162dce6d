// Two dispatched targets on two executors (HOST-A and HOST-B): @main runs
// ITERATIONS rounds of y = near::square(x) on A, z = far::scale(y) on B and
// prints the last z. Sed replaces ITERATIONS.
module @host {
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

  func.func @setup() {
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant ITERATIONS : index
    %one = arith.constant 1.000000e+00 : f64
    %x = memref.alloc() : memref<4xf64>
    scf.for %i = %c0 to %c4 step %c1 {
      %i64 = arith.index_cast %i : index to i64
      %f = arith.sitofp %i64 : i64 to f64
      %v = arith.addf %f, %one : f64
      memref.store %v, %x[%i] : memref<4xf64>
    }
    %last = memref.alloc() : memref<4xf64>
    scf.for %round = %c0 to %n step %c1 {
      %y = catalyst.launch_kernel @near::@square(%x) : (memref<4xf64>) -> memref<4xf64>
      %z = catalyst.launch_kernel @far::@scale(%y) : (memref<4xf64>) -> memref<4xf64>
      memref.copy %z, %last : memref<4xf64> to memref<4xf64>
      memref.dealloc %y : memref<4xf64>
      memref.dealloc %z : memref<4xf64>
    }
    %last_u = memref.cast %last : memref<4xf64> to memref<*xf64>
    func.call @printMemrefF64(%last_u) : (memref<*xf64>) -> ()
    return
  }

  module @near attributes {catalyst.target = {}, catalyst.dispatch = {address = "HOST-A:7000"}} {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      %y = memref.alloc() : memref<4xf64>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf64>) outs(%y : memref<4xf64>) {
      ^bb0(%in: f64, %out: f64):
        %sq = arith.mulf %in, %in : f64
        linalg.yield %sq : f64
      }
      return %y : memref<4xf64>
    }
  }

  module @far attributes {catalyst.target = {}, catalyst.dispatch = {address = "HOST-B:7000"}} {
    func.func @scale(%x: memref<4xf64>) -> memref<4xf64> {
      %y = memref.alloc() : memref<4xf64>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf64>) outs(%y : memref<4xf64>) {
      ^bb0(%in: f64, %out: f64):
        %h = arith.constant 5.000000e-01 : f64
        %s = arith.mulf %in, %h : f64
        linalg.yield %s : f64
      }
      return %y : memref<4xf64>
    }
  }
}
