
func.func @dynamic_result(%x: tensor<4xf64>) -> tensor<?xf64> {
  // expected-error @+2 {{failed to bufferize op}}
  // expected-error @+1 {{'catalyst.custom_call' op result of type 'tensor<?xf64>' cannot be bufferized: the callee fills an output buffer, which needs a statically shaped ranked tensor type}}
  %r = catalyst.custom_call fn("f") (%x) : (tensor<4xf64>) -> tensor<?xf64>
  return %r : tensor<?xf64>
}
