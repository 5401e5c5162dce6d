
func.func @dynamic_out(%t: tensor<?xf64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'tensor<?xf64>' for c_params[0] = "out" must be a statically shaped ranked tensor}}
  %r = catalyst.runtime_call "f"(%t) {c_params = ["out"]} : (tensor<?xf64>) -> tensor<?xf64>
  return
}

