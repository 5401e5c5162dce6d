
func.func @ipv6_unclosed_bracket() {
  // expected-error @+1 {{'executor.open' op address "[::1:4711" opens an IPv6 host with '[' but has no ']'; write it as [::1]:port}}
  %s = executor.open("[::1:4711") : !executor.session
  return
}

