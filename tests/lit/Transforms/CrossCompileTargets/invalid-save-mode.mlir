// An unknown save-ir-after-each mode is reported on the target.
//
// RUN: rm -rf %t
// RUN: executor-opt %s -verify-diagnostics --cross-compile-targets="workspace=%t save-ir-after-each=bogus"
// RUN: not ls %t/t/ir

module {
  // expected-error @+1 {{'builtin.module' op save-ir-after-each: unknown save mode 'bogus'; use pipeline, changed or pass}}
  module @t attributes {catalyst.target} {
  }
}
