
// A target the default lowering leaves outside the LLVM dialect (math.erf
// has no LLVM intrinsic; see target-options.mlir for a pipeline that
// handles it).

module {
  // expected-error @+1 {{'builtin.module' op target @t did not translate to LLVM IR; its pipeline must lower it to the LLVM dialect}}
  module @t attributes {catalyst.target} {
    func.func @f(%x: f64) -> f64 {
      // expected-error @+1 {{cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for dialect for op: math.erf}}
      %y = math.erf %x : f64
      return %y : f64
    }
  }
}

