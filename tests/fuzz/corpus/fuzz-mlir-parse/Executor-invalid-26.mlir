
// A tensor output is destination-passing style: it needs its result.
func.func @call_tensor_output(%s: !executor.session, %a: memref<4xf64>, %b: tensor<4xf64>) {
  // expected-error @+1 {{'executor.call' op has 1 tensor output operand(s) after num_input_args but 0 result(s); each tensor output needs a result of its type (the filled value, as in destination-passing style)}}
  executor.call %s("f")(%a, %b) {num_input_args = 1 : i32} : !executor.session, (memref<4xf64>, tensor<4xf64>) -> ()
  return
}

