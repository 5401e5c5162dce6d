
func.func @launch_async_returns_session(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch_async' op result #0 must be A handle to one launch that has not finished yet., but got '!executor.session'}}
  %t = "executor.launch_async"(%s) <{kernel_callee = "k", object = "/tmp/a.o"}> : (!executor.session) -> !executor.session
  return
}

