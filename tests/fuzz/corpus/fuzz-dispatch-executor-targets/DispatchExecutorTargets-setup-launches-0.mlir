// setup() may launch kernels itself: it uses the session it opens and the
// object it ships.
//

module @prog {
  func.func @setup() {
    catalyst.launch_kernel @compute::@warmup() : () -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @warmup()
  }
}
