
func.func @open_returns_i64() {
  // expected-error @+1 {{'executor.open' op result #0 must be A handle to an open executor session., but got 'i64'}}
  %s = "executor.open"() <{address = "127.0.0.1:4711"}> : () -> i64
  return
}

