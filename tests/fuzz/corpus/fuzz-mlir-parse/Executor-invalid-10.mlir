
func.func @ipv6_no_port() {
  // expected-error @+1 {{'executor.open' op address "[::1]4711" has no ':port' after the bracketed IPv6 host}}
  %s = executor.open("[::1]4711") : !executor.session
  return
}

