// Functions of a target that no host launch names are private: internal
// symbols of its object (lowercase t in llvm-nm), never exported.
//

// The entries stay exported.
// DISPATCHED-DAG: T _catalyst_pyface_square
// DISPATCHED-DAG: T square
// A helper (kept out of line by noinline) and an unused function are local
// symbols (`t`) or gone: never global.
// HIDDEN-COMPUTE-NOT: {{ [TWDRB] (helper|unused)$}}

// LOCAL-DAG: T _catalyst_pyface_total
// LOCAL-DAG: T total
// HIDDEN-LOCAL-NOT: {{ [TWDRB] (helper|other)$}}

module @prog {
  func.func @main(%x: memref<4xf64>) -> f64 {
    %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %s = catalyst.launch_kernel @local::@total(%y) : (memref<4xf64>) -> f64
    return %s : f64
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      %y = memref.alloc() : memref<4xf64>
      call @helper(%x, %y) : (memref<4xf64>, memref<4xf64>) -> ()
      return %y : memref<4xf64>
    }
    func.func @helper(%x: memref<4xf64>, %y: memref<4xf64>) attributes {passthrough = ["noinline"]} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf64>
        %s = arith.mulf %v, %v : f64
        memref.store %s, %y[%i] : memref<4xf64>
      }
      return
    }
    func.func @unused() {
      return
    }
  }
  module @local attributes {catalyst.target} {
    func.func @total(%x: memref<4xf64>) -> f64 {
      %v = call @helper(%x) : (memref<4xf64>) -> f64
      return %v : f64
    }
    func.func @helper(%x: memref<4xf64>) -> f64 {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<4xf64>
      return %v : f64
    }
    func.func @other() {
      return
    }
  }
}
