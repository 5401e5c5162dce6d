
func.func @tensor_results_memref_inputs(%s: !executor.session, %n: memref<1xi64>) -> (tensor<1xi32>, tensor<4xf64>) {
  // expected-error @+1 {{'executor.call' op still takes or returns tensors}}
  %r:2 = executor.call %s("sample")(%n) : !executor.session, (memref<1xi64>) -> (tensor<1xi32>, tensor<4xf64>)
  return %r#0, %r#1 : tensor<1xi32>, tensor<4xf64>
}

