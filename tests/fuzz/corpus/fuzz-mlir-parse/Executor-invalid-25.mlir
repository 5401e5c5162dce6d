
func.func @call_too_many_input_args(%s: !executor.session, %a: memref<4xf64>, %b: memref<4xf64>) {
  // expected-error @+1 {{'executor.call' op num_input_args = 3 must lie in [0, 2] (the number of operands)}}
  executor.call %s("f")(%a, %b) {num_input_args = 3 : i32} : !executor.session, (memref<4xf64>, memref<4xf64>) -> ()
  return
}

