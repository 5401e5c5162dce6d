
func.func @custom_call_dispatch_not_a_string() {
  // expected-error @+1 {{'catalyst.custom_call' op backend_config dispatch must be a string, "host:port" or "" for the program's only executor, not 4711 : i64}}
  catalyst.custom_call fn("f") () {backend_config = {dispatch = 4711}} : () -> ()
  return
}

