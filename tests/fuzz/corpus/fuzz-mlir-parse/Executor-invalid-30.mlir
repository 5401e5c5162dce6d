
func.func @launch_tensor_result(%s: !executor.session, %x: memref<4xf64>) {
  // expected-error @+1 {{'executor.launch' op result #0 must be variadic of memref of any type values, but got 'tensor<4xf64>'}}
  %r = executor.launch %s("square", "/tmp/a.o")(%x) : !executor.session, (memref<4xf64>) -> tensor<4xf64>
  return
}

