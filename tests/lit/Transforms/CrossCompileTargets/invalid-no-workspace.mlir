// Targets need a workspace to be compiled into. The error is at the first
// target (so the diagnostic does not print the whole program), and a note
// counts the others.
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics --cross-compile-targets
// RUN: not executor-opt %s -split-input-file --cross-compile-targets 2>&1 \
// RUN:   | FileCheck %s

// CHECK: invalid-no-workspace.mlir:[[@LINE+4]]:3: error: Missing `workspace` option for target cross-compilation: target @t needs a directory for its object; pass cross-compile-targets{workspace=DIR}
// CHECK-NOT: "builtin.module"
module @prog {
  // expected-error @+1 {{Missing `workspace` option for target cross-compilation: target @t needs a directory for its object; pass cross-compile-targets{workspace=DIR}}}
  module @t attributes {catalyst.target} {
  }
}

// -----

module @prog {
  // expected-error @+2 {{Missing `workspace` option for target cross-compilation: target @a}}
  // expected-note @+1 {{1 more catalyst.target module(s) need it too}}
  module @a attributes {catalyst.target} {
  }
  module @b attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

