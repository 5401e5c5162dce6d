
func.func @memref_for_out(%m: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'memref<4xf64>' for c_params[0] = "out" must be a statically shaped ranked tensor (the shape of the buffer the callee fills)}}
  catalyst.runtime_call "f"(%m) {c_params = ["out"]} : (memref<4xf64>) -> ()
  return
}

