
func.func @format_i64(%s: !executor.session) {
  // expected-error @+1 {{'executor.send_binary' op attribute 'format' failed to satisfy constraint: 32-bit signless integer attribute}}
  executor.send_binary %s("/tmp/a.o") {format = 0 : i64} : !executor.session
  return
}

