
func.func @missing_c_params() {
  // expected-error @+1 {{'catalyst.runtime_call' op requires attribute 'c_params'}}
  catalyst.runtime_call "f"() : () -> ()
  return
}

