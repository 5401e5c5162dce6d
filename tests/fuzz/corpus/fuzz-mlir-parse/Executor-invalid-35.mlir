
func.func @close_token(%t: !executor.token) {
  // expected-error @+1 {{'executor.close' op operand #0 must be A handle to an open executor session., but got '!executor.token'}}
  "executor.close"(%t) : (!executor.token) -> ()
  return
}

