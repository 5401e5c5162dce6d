
func.func @custom_call_negative_inputs(%m: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.custom_call' op number_original_arg = -1 must lie in [0, 1]}}
  catalyst.custom_call fn("f") (%m) {number_original_arg = -1 : i32} : (memref<4xf64>) -> ()
  return
}

