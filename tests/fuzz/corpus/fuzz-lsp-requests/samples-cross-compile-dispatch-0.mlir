// cross-compile-dispatch.mlir: a host program with one dispatched and one
// local target, in the shape of Catalyst PR #3033.
//
// @main builds x = [1, 2, 3, 4] and runs three kernels on it:
//   - @compute::@square and @compute::@scale live in a target module with
//     catalyst.dispatch: cross-compile-targets compiles @compute to its own
//     object and dispatch-executor-targets ships it to the executor at
//     ADDR:PORT (opened in @setup) and turns both launches into
//     executor.launch;
//   - @local::@sum lives in a target module without catalyst.dispatch:
//     cross-compile-targets compiles it too, turns its launch into a
//     func.call and lists its object in catalyst.object_files for the linker.
// It prints [1, 4, 9, 16], [0.5, 2, 4.5, 8] and [15], labelled by the demo:
//   result: @compute::@square, on the executor
//   result: @compute::@scale, on the executor
//   result: @local::@sum, linked into the host
// Kernels work on memrefs (bufferized form), each allocating its result.
// runnable:
//   executor-opt cross-compile-dispatch.mlir \
//     --cross-compile-targets=workspace=/tmp/ws --dispatch-executor-targets

module @host {
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

  // dispatch-executor-targets opens the sessions and ships the objects here.
  func.func @setup() {
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.000000e+00 : f64
    %zero = arith.constant 0.000000e+00 : f64

    // x = [1, 2, 3, 4]
    %x = memref.alloc() : memref<4xf64>
    linalg.fill ins(%zero : f64) outs(%x : memref<4xf64>)
    scf.for %i = %c0 to %c4 step %c1 {
      %i64 = arith.index_cast %i : index to i64
      %f = arith.sitofp %i64 : i64 to f64
      %v = arith.addf %f, %one : f64
      memref.store %v, %x[%i] : memref<4xf64>
    }

    // On the executor.
    %squares = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %scaled = catalyst.launch_kernel @compute::@scale(%squares) : (memref<4xf64>) -> memref<4xf64>
    // On the host, linked statically.
    %sum = catalyst.launch_kernel @local::@sum(%scaled) : (memref<4xf64>) -> memref<1xf64>

    %squares_u = memref.cast %squares : memref<4xf64> to memref<*xf64>
    func.call @printMemrefF64(%squares_u) : (memref<*xf64>) -> ()
    %scaled_u = memref.cast %scaled : memref<4xf64> to memref<*xf64>
    func.call @printMemrefF64(%scaled_u) : (memref<*xf64>) -> ()
    %sum_u = memref.cast %sum : memref<1xf64> to memref<*xf64>
    func.call @printMemrefF64(%sum_u) : (memref<*xf64>) -> ()

    memref.dealloc %x : memref<4xf64>
    return
  }

  // A dispatched target: compiled for the host triple and run on the
  // executor at ADDR:PORT.
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    // y = x * x
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      %y = memref.alloc() : memref<4xf64>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf64>) outs(%y : memref<4xf64>) {
      ^bb0(%in: f64, %out: f64):
        %sq = arith.mulf %in, %in : f64
        linalg.yield %sq : f64
      }
      return %y : memref<4xf64>
    }

    // y = 0.5 * x
    func.func @scale(%x: memref<4xf64>) -> memref<4xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %half = arith.constant 5.000000e-01 : f64
      %y = memref.alloc() : memref<4xf64>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf64>
        %s = arith.mulf %v, %half : f64
        memref.store %s, %y[%i] : memref<4xf64>
      }
      return %y : memref<4xf64>
    }
  }

  // A local target: compiled on its own and linked into the host.
  module @local attributes {catalyst.target = {}} {
    // y = [x[0] + x[1] + x[2] + x[3]]
    func.func @sum(%x: memref<4xf64>) -> memref<1xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.000000e+00 : f64
      %total = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f64) {
        %v = memref.load %x[%i] : memref<4xf64>
        %next = arith.addf %acc, %v : f64
        scf.yield %next : f64
      }
      %y = memref.alloc() : memref<1xf64>
      memref.store %total, %y[%c0] : memref<1xf64>
      return %y : memref<1xf64>
    }
  }
}
