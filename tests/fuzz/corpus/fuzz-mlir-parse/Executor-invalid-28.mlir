
func.func @call_tensor_outputs_swapped(%s: !executor.session, %a: tensor<4xf64>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'executor.call' op result #0 of type 'tensor<2xi32>' does not match its tensor output operand of type 'tensor<4xf64>'}}
  %r:2 = executor.call %s("f")(%a, %b) {num_input_args = 0 : i32} : !executor.session, (tensor<4xf64>, tensor<2xi32>) -> (tensor<2xi32>, tensor<4xf64>)
  return
}

