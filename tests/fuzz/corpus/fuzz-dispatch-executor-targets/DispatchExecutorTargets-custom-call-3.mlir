
module @ambiguous {
  func.func @main() {
    catalyst.launch_kernel @t1::@c1() : () -> ()
    catalyst.launch_kernel @t2::@c2() : () -> ()
    // expected-error @+1 {{'catalyst.custom_call' op has an empty backend_config dispatch, an ambiguous executor: the program has 2 executors (host:1, host:2); write the address in backend_config dispatch}}
    catalyst.custom_call fn("foo") () {backend_config = {dispatch = ""}} : () -> ()
    return
  }
  module @t1 attributes {catalyst.object_file = "/tmp/t1.o", catalyst.dispatch = {address = "host:1"}} {
    func.func public @c1() {
      return
    }
  }
  module @t2 attributes {catalyst.object_file = "/tmp/t2.o", catalyst.dispatch = {address = "host:2"}} {
    func.func public @c2() {
      return
    }
  }
}

