
func.func @call_tensor_output_wrong_result(%s: !executor.session, %a: memref<4xf64>, %b: memref<4xf64>, %c: tensor<2xi32>) {
  // expected-error @+1 {{'executor.call' op result #0 of type 'tensor<2xi64>' does not match its tensor output operand of type 'tensor<2xi32>' (tensor outputs and their results pair up in order)}}
  %r = executor.call %s("f")(%a, %b, %c) {num_input_args = 1 : i32} : !executor.session, (memref<4xf64>, memref<4xf64>, tensor<2xi32>) -> tensor<2xi64>
  return
}

