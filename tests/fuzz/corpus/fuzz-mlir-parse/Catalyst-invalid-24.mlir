
func.func @extra_operand(%x: i64, %y: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op has 2 operands but c_params consumes 1; every operand needs a parameter}}
  catalyst.runtime_call "f"(%x, %y) {c_params = ["i64"]} : (i64, i64) -> ()
  return
}

