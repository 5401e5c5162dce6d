
func.func @signed_int_for_scalar(%x: si32) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'si32' does not fit c_params[0] = "i32"}}
  catalyst.runtime_call "f"(%x) {c_params = ["i32"]} : (si32) -> ()
  return
}

