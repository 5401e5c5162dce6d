
func.func @extra_strings() {
  // expected-error @+1 {{'catalyst.runtime_call' op c_params has 1 "str" parameter(s) but c_strings has 2}}
  catalyst.runtime_call "f"() {c_params = ["str"], c_strings = ["a", "b"]} : () -> ()
  return
}

