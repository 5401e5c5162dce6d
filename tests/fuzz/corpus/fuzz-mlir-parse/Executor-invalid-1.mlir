
func.func @white_space() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1: 4711" contains white space; write it as host:port}}
  %s = executor.open("127.0.0.1: 4711") : !executor.session
  return
}

