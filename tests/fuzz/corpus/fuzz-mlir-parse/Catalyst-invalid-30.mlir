
func.func @out_result_mismatch(%t: tensor<4xf64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op result #1 of type 'tensor<8xf64>' must match its "out" operand type 'tensor<4xf64>'}}
  %n, %r = catalyst.runtime_call "f"(%t) {c_params = ["out"]} : (tensor<4xf64>) -> (i32, tensor<8xf64>)
  return
}

