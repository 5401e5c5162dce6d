
func.func @launch_async_empty_object(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch_async' op object is empty; give the path of the object file shipped with executor.send_binary}}
  %t = executor.launch_async %s("warmup", "") : !executor.session -> !executor.token
  return
}

