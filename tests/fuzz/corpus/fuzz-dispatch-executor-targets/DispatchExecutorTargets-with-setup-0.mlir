// With a setup() function, dispatch-executor-targets opens one session per
// unique address and ships every object once, there; every other function
// that launches opens its own session of the same address at its entry
// (open is idempotent per address in the runtime) and ships nothing.
//

// Nothing of the targets is left, and no session is closed.
// GONE-NOT: catalyst.
// GONE-NOT: module @compute
// GONE-NOT: executor.close

// Three objects, three sends, all in setup(); none anywhere after it (the
// objects of @compute and @other are launched three times in all).
// ONCE: func.func @setup() {
// ONCE-COUNT-3: executor.send_binary
// ONCE-NEXT: call @init_host
// ONCE-NOT: executor.send_binary

// What setup() did before stays after.

// Each launching function opens the addresses it uses, once each.
// Two targets on one address share the session.


// A function without launches is left alone.
module @prog {
  func.func private @init_host()
  func.func @setup() {
    func.call @init_host() : () -> ()
    return
  }
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %a = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %b = catalyst.launch_kernel @compute::@square(%a) : (memref<4xf64>) -> memref<4xf64>
    %c = catalyst.launch_kernel @other::@scale(%b) : (memref<4xf64>) -> memref<4xf64>
    return %c : memref<4xf64>
  }
  func.func @elsewhere(%x: memref<4xf64>, %y: memref<2x2xi32>) -> (memref<f32>, memref<3xi64>) {
    %r:2 = catalyst.launch_kernel @far::@pair(%x, %y) : (memref<4xf64>, memref<2x2xi32>) -> (memref<f32>, memref<3xi64>)
    return %r#0, %r#1 : memref<f32>, memref<3xi64>
  }
  func.func @untouched() {
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
  module @other attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/other/other.o"} {
    func.func private @scale(memref<4xf64>) -> memref<4xf64>
  }
  module @far attributes {catalyst.target = {}, catalyst.dispatch = {address = "10.0.0.2:5000"}, catalyst.object_file = "/ws/far/far.o"} {
    func.func private @pair(memref<4xf64>, memref<2x2xi32>) -> (memref<f32>, memref<3xi64>)
  }
}
