
func.func @tensor_for_scalar(%t: tensor<4xi64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'tensor<4xi64>' does not fit c_params[0] = "i64"}}
  catalyst.runtime_call "f"(%t) {c_params = ["i64"]} : (tensor<4xi64>) -> ()
  return
}

