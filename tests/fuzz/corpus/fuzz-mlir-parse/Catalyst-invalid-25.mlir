
func.func @missing_strings() {
  // expected-error @+1 {{'catalyst.runtime_call' op c_params has 1 "str" parameter(s) but c_strings has 0}}
  catalyst.runtime_call "f"() {c_params = ["str"]} : () -> ()
  return
}

