
func.func @notmod() {
  return
}
func.func @root_not_a_module() {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @notmod::@entry: @notmod is a 'func.func', not a nested builtin.module}}
  catalyst.launch_kernel @notmod::@entry() : () -> ()
  return
}

