
func.func @ipv6_empty_port() {
  // expected-error @+1 {{'executor.open' op address "[::1]:" has an empty port; write it as host:port}}
  %s = executor.open("[::1]:") : !executor.session
  return
}

