
func.func @launch_missing_object(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch' op requires attribute 'object'}}
  "executor.launch"(%s) <{kernel_callee = "k"}> : (!executor.session) -> ()
  return
}

