
func.func @call_unranked_tensor(%s: !executor.session, %a: tensor<*xf64>) {
  // expected-error @+1 {{'executor.call' op operand #1 must be variadic of ranked tensor of any type values or memref of any type values, but got 'tensor<*xf64>'}}
  executor.call %s("f")(%a) : !executor.session, (tensor<*xf64>) -> ()
  return
}

