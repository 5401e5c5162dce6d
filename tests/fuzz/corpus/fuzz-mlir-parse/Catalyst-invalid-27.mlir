
func.func @out_without_result(%t: tensor<4xf64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op has 0 results; expected 1 or 2 (the optional C result, then one per "out" parameter)}}
  catalyst.runtime_call "f"(%t) {c_params = ["out"]} : (tensor<4xf64>) -> ()
  return
}

