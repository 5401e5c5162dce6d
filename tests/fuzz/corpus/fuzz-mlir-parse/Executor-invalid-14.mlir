
func.func @empty_bracketed_host() {
  // expected-error @+1 {{'executor.open' op address "[]:4711" has an empty host; write it as host:port}}
  %s = executor.open("[]:4711") : !executor.session
  return
}

