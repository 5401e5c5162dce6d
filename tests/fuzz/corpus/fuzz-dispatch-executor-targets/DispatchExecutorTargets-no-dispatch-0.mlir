// Without catalyst.dispatch modules the pass changes nothing: launches into
// local targets, runtime calls, executor ops and other nested modules stay.
//

// NONE-NOT: executor.send_binary
// NONE-NOT: executor.launch

module @prog {
  func.func @setup() {
    return
  }
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @local::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %s = executor.open("127.0.0.1:4711") : !executor.session
    executor.close %s : !executor.session
    return %y : memref<4xf64>
  }
  module @local attributes {catalyst.target = {}, catalyst.object_file = "/ws/local/local.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
  module @plain {
  }
}
