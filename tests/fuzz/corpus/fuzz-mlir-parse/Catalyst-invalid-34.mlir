
func.func @c_params_not_strings(%x: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op attribute 'c_params' failed to satisfy constraint: string array attribute}}
  catalyst.runtime_call "f"(%x) {c_params = [1]} : (i64) -> ()
  return
}

