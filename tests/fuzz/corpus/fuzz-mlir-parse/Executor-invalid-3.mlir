
func.func @empty_port() {
  // expected-error @+1 {{'executor.open' op address "localhost:" has an empty port; write it as host:port}}
  %s = executor.open("localhost:") : !executor.session
  return
}

