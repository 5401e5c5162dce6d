
func.func @bad_dispatch_address() {
  // expected-error @+1 {{'catalyst.runtime_call' op dispatch address "localhost" has no port; write it as host:port (or write "" for the program's single executor)}}
  catalyst.runtime_call "f"() {c_params = [], dispatch = "localhost"} : () -> ()
  return
}

