
func.func @tensor_declared_result() {
  // expected-error @+1 {{'catalyst.runtime_call' op declared result of type 'tensor<4xf64>' must be a scalar integer or float}}
  %r = catalyst.runtime_call "f"() {c_params = []} : () -> tensor<4xf64>
  return
}

