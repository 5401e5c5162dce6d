// Errors of cross-compile-targets with save-ir-after-each.
//
// RUN: rm -rf %t
// RUN: executor-opt %s -split-input-file -verify-diagnostics --cross-compile-targets="workspace=%t save-ir-after-each=pass"
// RUN: ls %t/failing/ir | FileCheck %s

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

// CHECK: 00_input.mlir
// CHECK-NEXT: 01_one-shot-bufferize.mlir
// CHECK-NOT: {{.}}

// -----

// An unparsable target pipeline.

module {
  // expected-error @+2 {{'builtin.module' op target @t failed to lower with "builtin.module(no-such-pass)"}}
  // expected-note-re @+1 {{invalid pipeline "builtin.module(no-such-pass)": 'no-such-pass' is not a registered pass or pass pipeline}}
  module @t attributes {catalyst.target = {pipeline = "builtin.module(no-such-pass)"}} {
  }
}
