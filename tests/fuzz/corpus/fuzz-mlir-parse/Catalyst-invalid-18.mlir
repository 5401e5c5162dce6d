
func.func @float_for_int(%x: f32) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'f32' does not fit c_params[1] = "i32"}}
  catalyst.runtime_call "f"(%x) {c_params = ["str", "i32"], c_strings = ["s"]} : (f32) -> ()
  return
}

