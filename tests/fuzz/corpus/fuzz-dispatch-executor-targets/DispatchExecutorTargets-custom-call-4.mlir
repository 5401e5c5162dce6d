
module @no_executor {
  func.func @main() {
    // expected-error @+1 {{'catalyst.custom_call' op has an empty backend_config dispatch but the program has no executor address: write backend_config dispatch = "host:port", or give a dispatched module catalyst.dispatch = {address = "host:port"}}}
    catalyst.custom_call fn("foo") () {backend_config = {dispatch = ""}} : () -> ()
    return
  }
}

