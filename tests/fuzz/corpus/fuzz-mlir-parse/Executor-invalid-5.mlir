
func.func @port_overflows() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1:123456789012345678901234567890" has port 123456789012345678901234567890 outside [0, 65535]}}
  %s = executor.open("127.0.0.1:123456789012345678901234567890") : !executor.session
  return
}

