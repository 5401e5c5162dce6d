
// A target whose lowering fails: the failing pass's diagnostic, then the
// target's.

module {
  // expected-error-re @+1 {{'builtin.module' op target @t failed to lower with "builtin.module(one-shot-bufferize{{.*}},reconcile-unrealized-casts)"}}
  module @t attributes {catalyst.target} {
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      // expected-error @+1 {{op was not bufferized}}
      %b = arith.addf %a, %a : tensor<4xf32>
      return %b : tensor<4xf32>
    }
  }
}

