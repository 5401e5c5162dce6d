// Targets need a workspace to be compiled into.
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics --cross-compile-targets

// expected-error @+1 {{'builtin.module' op has 1 catalyst.target module(s) but cross-compile-targets has no workspace: pass cross-compile-targets{workspace=DIR}}}
module @prog {
  module @t attributes {catalyst.target} {
  }
}

// -----

// expected-error @+1 {{'builtin.module' op has 2 catalyst.target module(s) but cross-compile-targets has no workspace}}
module @prog {
  module @a attributes {catalyst.target} {
  }
  module @b attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}
