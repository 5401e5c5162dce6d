
func.func @ipv6_without_brackets() {
  // expected-error @+1 {{'executor.open' op address "::1:4711" has an IPv6 host without brackets; write it as [host]:port}}
  %s = executor.open("::1:4711") : !executor.session
  return
}

