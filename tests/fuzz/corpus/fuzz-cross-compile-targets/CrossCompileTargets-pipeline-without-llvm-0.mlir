// A target whose own pipeline does not lower to the LLVM dialect gets an
// error that says so, not a crash.
//

// No entries: the module does not translate.

module {
  // expected-error @+1 {{'builtin.module' op target @t did not translate to LLVM IR; its pipeline must lower it to the LLVM dialect}}
  module @t attributes {catalyst.target = {pipeline = "builtin.module(canonicalize)"}} {
    // expected-error @+1 {{cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for dialect for op: func.func}}
    func.func @f() {
      return
    }
  }
}

