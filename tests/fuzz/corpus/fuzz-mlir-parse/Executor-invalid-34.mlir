
func.func @await_session(%s: !executor.session) {
  // expected-error @+1 {{'executor.await' op operand #0 must be A handle to one launch that has not finished yet., but got '!executor.session'}}
  "executor.await"(%s) : (!executor.session) -> ()
  return
}

