// A target whose own pipeline does not lower to the LLVM dialect gets an
// error that says so, not a crash.
//
// RUN: rm -rf %t
// RUN: executor-opt %s -split-input-file -verify-diagnostics --cross-compile-targets="workspace=%t"

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

// -----

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
