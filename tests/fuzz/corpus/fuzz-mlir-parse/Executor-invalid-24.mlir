
func.func @call_negative_num_input_args(%s: !executor.session, %a: memref<4xf64>) {
  // expected-error @+1 {{'executor.call' op num_input_args = -1 must lie in [0, 1] (the number of operands)}}
  executor.call %s("f")(%a) {num_input_args = -1 : i32} : !executor.session, (memref<4xf64>) -> ()
  return
}

