// Without a setup() function (or with only a declaration of one), each host
// function that launches opens its addresses and ships the objects it uses
// at its entry, once each.
//

// Two targets on one address: one open, one send per object.

// A second function does the same for what it uses only.

// A launch nested in a loop: the session is opened at the function entry.

// The declared setup is not touched.
module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %c0 = arith.constant 0 : index
    %a = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %b = catalyst.launch_kernel @compute::@square(%a) : (memref<4xf64>) -> memref<4xf64>
    %c = catalyst.launch_kernel @other::@scale(%b) : (memref<4xf64>) -> memref<4xf64>
    %v = memref.load %x[%c0] : memref<4xf64>
    memref.store %v, %c[%c0] : memref<4xf64>
    return %c : memref<4xf64>
  }
  func.func @helper(%x: memref<4xf64>) -> memref<4xf64> {
    %d = catalyst.launch_kernel @other::@scale(%x) : (memref<4xf64>) -> memref<4xf64>
    return %d : memref<4xf64>
  }
  func.func @in_loop(%x: memref<4xf64>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    }
    return
  }
  func.func private @setup()
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
  module @other attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/other/other.o"} {
    func.func private @scale(memref<4xf64>) -> memref<4xf64>
  }
}

