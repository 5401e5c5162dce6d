// A float operand of the declared width but another format (bf16 for "f16")
// is converted through f32.
//

func.func @bf16_to_f16(%a: bf16) {
  catalyst.runtime_call "half"(%a) {c_params = ["f16"], dispatch = "127.0.0.1:4711"} : (bf16) -> ()
  return
}
