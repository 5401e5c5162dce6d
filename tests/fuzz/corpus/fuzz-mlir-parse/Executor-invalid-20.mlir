
func.func @launch_empty_object(%s: !executor.session, %x: memref<4xf64>) {
  // expected-error @+1 {{'executor.launch' op object is empty; give the path of the object file shipped with executor.send_binary}}
  executor.launch %s("square", "")(%x) : !executor.session, (memref<4xf64>) -> ()
  return
}

