
func.func @launch_vector_results(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch' op has a memref of type 'memref<4xvector<4xf32>>' whose element type has no fixed size}}
  %r = executor.launch %s("k", "/ws/k.o")() : !executor.session, () -> memref<4xvector<4xf32>>
  return
}

