
func.func @port_bad_chars() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1:47a1" has port '47a1', which is neither a number nor a placeholder name}}
  %s = executor.open("127.0.0.1:47a1") : !executor.session
  return
}

