
func.func @bad_dispatch_port() {
  // expected-error @+1 {{'catalyst.runtime_call' op dispatch address "127.0.0.1:99999" has port 99999 outside [0, 65535] (or write "" for the program's single executor)}}
  catalyst.runtime_call "f"() {c_params = [], dispatch = "127.0.0.1:99999"} : () -> ()
  return
}

