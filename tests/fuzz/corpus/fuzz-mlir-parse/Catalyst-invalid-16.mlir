
func.func @param_without_operand(%x: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op c_params[2] = "f64" has no operand: 1 operand(s) for the non-str parameters}}
  catalyst.runtime_call "f"(%x) {c_params = ["i64", "str", "f64"], c_strings = ["s"]} : (i64) -> ()
  return
}

