
func.func @callee() {
  return
}
func.func @nonblocking_on_call() {
  // expected-error @+1 {{'func.call' op carries 'catalyst.nonblocking', which belongs on a catalyst.launch_kernel only}}
  func.call @callee() {catalyst.nonblocking} : () -> ()
  return
}

