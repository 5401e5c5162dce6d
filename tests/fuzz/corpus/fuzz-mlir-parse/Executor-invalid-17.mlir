
// A negative format is reserved too (the message shows it as unsigned).
func.func @negative_format(%s: !executor.session) {
  // expected-error @+1 {{is reserved; only 0 (the raw object file) is supported}}
  executor.send_binary %s("/tmp/a.o") {format = -1 : i32} : !executor.session
  return
}

