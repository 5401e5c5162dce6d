// A launch into a dispatched target outside any function is an error, not
// a crash.
//

module @prog {
  // expected-error @+1 {{'catalyst.launch_kernel' op launches into a dispatched target outside a function; put it in a host function}}
  catalyst.launch_kernel @compute::@k() : () -> ()
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @k()
  }
}
