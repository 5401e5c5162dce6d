
func.func @call_memref_result(%s: !executor.session, %a: tensor<4xf64>) {
  // expected-error @+1 {{'executor.call' op result #0 must be variadic of ranked tensor of any type values, but got 'memref<4xf64>'}}
  %r = executor.call %s("f")(%a) : !executor.session, (tensor<4xf64>) -> memref<4xf64>
  return
}

