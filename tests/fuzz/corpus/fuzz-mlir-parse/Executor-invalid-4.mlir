
func.func @port_out_of_range() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1:70000" has port 70000 outside [0, 65535]}}
  %s = executor.open("127.0.0.1:70000") : !executor.session
  return
}

