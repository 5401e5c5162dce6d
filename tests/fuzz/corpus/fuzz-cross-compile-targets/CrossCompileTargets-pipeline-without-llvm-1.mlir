
// An entry: no C interface to wrap.

module {
  func.func @main() {
    catalyst.launch_kernel @t::@f() : () -> ()
    return
  }
  // One error, at the target, that says what is missing.
  // expected-error @+1 {{entry @f has no _mlir_ciface_f after lowering; the target pipeline must lower func.func with convert-func-to-llvm so llvm.emit_c_interface applies}}
  module @t attributes {catalyst.target = {pipeline = "builtin.module(canonicalize)"}} {
    func.func @f() {
      return
    }
  }
}
