
func.func @call_num_input_args_i64(%s: !executor.session, %a: memref<4xf64>) {
  // expected-error @+1 {{'executor.call' op attribute 'num_input_args' failed to satisfy constraint: 32-bit signless integer attribute}}
  "executor.call"(%s, %a) <{symbol = "f", num_input_args = 1 : i64}> : (!executor.session, memref<4xf64>) -> ()
  return
}
