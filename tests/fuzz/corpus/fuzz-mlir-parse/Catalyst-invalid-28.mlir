
func.func @too_many_results() {
  // expected-error @+1 {{'catalyst.runtime_call' op has 2 results; expected 0 or 1 (the optional C result, then one per "out" parameter)}}
  %a, %b = catalyst.runtime_call "f"() {c_params = []} : () -> (i32, i32)
  return
}

