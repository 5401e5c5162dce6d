
func.func @unknown_param_kind(%x: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op c_params[0] = "i128" is not a parameter kind; use i1, i8, i16, i32, i64, f16, f32, f64, ptr, str or out}}
  catalyst.runtime_call "f"(%x) {c_params = ["i128"]} : (i64) -> ()
  return
}

