// One-shot bufferize turns catalyst.custom_call into destination-passing
// style, as Catalyst does: tensor inputs become their buffers (a strided
// view is copied into a contiguous one), each tensor result a new buffer
// appended to the operands, and number_original_arg the number of inputs.
// backend_config and other attributes are kept.
//

func.func @dispatched(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<2xi64>) {
  %r:2 = catalyst.custom_call fn("eigh") (%x) {backend_config = {dispatch = "127.0.0.1:4711"}, keep} : (tensor<4xf64>) -> (tensor<4xf64>, tensor<2xi64>)
  return %r#0, %r#1 : tensor<4xf64>, tensor<2xi64>
}

