
func.func @i32_session(%c: i32) {
  // expected-error @+1 {{'executor.send_binary' op operand #0 must be A handle to an open executor session., but got 'i32'}}
  "executor.send_binary"(%c) <{binary_path = "/tmp/a.o"}> : (i32) -> ()
  return
}

