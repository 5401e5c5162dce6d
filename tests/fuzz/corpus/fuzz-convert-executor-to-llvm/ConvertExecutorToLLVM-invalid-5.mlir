
func.func @launch_vector_elements(%s: !executor.session, %m: memref<4xvector<4xf32>>) {
  // expected-error @+1 {{'executor.launch' op has a memref of type 'memref<4xvector<4xf32>>' whose element type has no fixed size; launches move ints, floats, index and complex values}}
  %r = executor.launch %s("k", "/ws/k.o")(%m) : !executor.session, (memref<4xvector<4xf32>>) -> memref<4xf64>
  return
}

