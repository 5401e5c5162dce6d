// Targets need a workspace to be compiled into. The error is at the first
// target (so the diagnostic does not print the whole program), and a note
// counts the others.
//

module @prog {
  // expected-error @+1 {{Missing `workspace` option for target cross-compilation: target @t needs a directory for its object; pass cross-compile-targets{workspace=DIR}}}
  module @t attributes {catalyst.target} {
  }
}

