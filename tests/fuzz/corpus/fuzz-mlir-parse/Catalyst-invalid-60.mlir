
func.func @custom_call_dispatch_no_port() {
  // expected-error @+1 {{'catalyst.custom_call' op backend_config dispatch address "localhost" has no port; write it as host:port (or write "" for the program's single executor)}}
  catalyst.custom_call fn("f") () {backend_config = {dispatch = "localhost"}} : () -> ()
  return
}

