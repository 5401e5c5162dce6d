// Errors of cross-compile-targets with save-ir-after-each.
//

// A failing lowering is reported with the diagnostics of the failing pass as
// notes; the snapshots up to the failure are kept.

module {
  // expected-error-re @+2 {{'builtin.module' op target @failing failed to lower with "builtin.module(one-shot-bufferize{{.*}})"}}
  // expected-note-re @+1 {{one-shot-bufferize: {{.*}}: op was not bufferized}}
  module @failing attributes {catalyst.target} {
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %b = arith.addf %a, %a : tensor<4xf32>
      return %b : tensor<4xf32>
    }
  }
}


