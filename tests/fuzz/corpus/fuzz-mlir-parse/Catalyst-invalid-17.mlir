
func.func @int_for_float(%x: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'i64' does not fit c_params[0] = "f64"}}
  catalyst.runtime_call "f"(%x) {c_params = ["f64"]} : (i64) -> ()
  return
}

