
func.func @custom_call_too_many_inputs(%m: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.custom_call' op number_original_arg = 2 must lie in [0, 1] (the number of operands)}}
  catalyst.custom_call fn("f") (%m) {number_original_arg = 2 : i32} : (memref<4xf64>) -> ()
  return
}

