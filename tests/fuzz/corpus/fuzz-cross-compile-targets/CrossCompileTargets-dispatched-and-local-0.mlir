// cross-compile-targets on a program with one dispatched and one local
// target: both are compiled to ELF relocatables in the workspace; the
// dispatched module is reduced to declarations of its entries and records
// its object; the local one is erased, its launch becomes a func.call and its
// object is listed for the linker.
//

// The host declares the local entry, first (as Catalyst places it).

// Launches into the dispatched target are left for dispatch-executor-targets;
// the local launch is a direct call now.

// The dispatched module keeps its attributes, gains its object and holds only
// private declarations of its entries (each once, though launched twice).

// The local module is gone.

// ELF: Class: ELF64
// ELF: Type: REL (Relocatable file)
// ELF: Machine: Advanced Micro Devices X86-64

// Each entry is exported with its pyface wrapper.
// NM-COMPUTE-DAG: T _catalyst_pyface_square
// NM-COMPUTE-DAG: T _catalyst_pyface_scale
// NM-COMPUTE-DAG: T _mlir_ciface_square
// NM-COMPUTE-DAG: T square
// Only its own entries (the whole listing is checked).
// NOT-COMPUTE-NOT: sum

// The host calls @sum directly: the entry is global.
// NM-LOCAL-DAG: T _catalyst_pyface_sum
// NM-LOCAL-DAG: T sum
// NOT-LOCAL-NOT: square
// NOT-LOCAL-NOT: scale

// One path a line: only the local object.
// MANIFEST: {{^}}[[WS]]/local/local.o{{$}}
// MANIFEST-NOT: {{.}}

module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<1xf64> {
    %a = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %b = catalyst.launch_kernel @compute::@scale(%a) : (memref<4xf64>) -> memref<4xf64>
    %c = catalyst.launch_kernel @local::@sum(%b) : (memref<4xf64>) -> memref<1xf64>
    return %c : memref<1xf64>
  }

  func.func @again(%x: memref<4xf64>) -> memref<4xf64> {
    %a = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %a : memref<4xf64>
  }

  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      %y = memref.alloc() : memref<4xf64>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf64>) outs(%y : memref<4xf64>) {
      ^bb0(%in: f64, %out: f64):
        %sq = arith.mulf %in, %in : f64
        linalg.yield %sq : f64
      }
      return %y : memref<4xf64>
    }
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

  module @local attributes {catalyst.target} {
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
