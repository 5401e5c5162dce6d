
//===----------------------------------------------------------------------===//
// executor.launch / executor.launch_async
//===----------------------------------------------------------------------===//

func.func @launch_empty_callee(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch' op kernel_callee is empty; name the entry function of the target module}}
  executor.launch %s("", "/tmp/a.o")() : !executor.session, () -> ()
  return
}

