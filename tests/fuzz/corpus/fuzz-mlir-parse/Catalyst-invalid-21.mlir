
func.func @bad_ptr(%x: i32) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'i32' does not fit c_params[0] = "ptr"; pass an i64, index or !llvm.ptr}}
  catalyst.runtime_call "f"(%x) {c_params = ["ptr"]} : (i32) -> ()
  return
}

