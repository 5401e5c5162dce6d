
func.func @no_port() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1" has no port; write it as host:port}}
  %s = executor.open("127.0.0.1") : !executor.session
  return
}

