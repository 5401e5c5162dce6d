
func.func @launch_async_empty_callee(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch_async' op kernel_callee is empty; name the entry function of the target module}}
  %t = executor.launch_async %s("", "/tmp/a.o") : !executor.session -> !executor.token
  return
}

