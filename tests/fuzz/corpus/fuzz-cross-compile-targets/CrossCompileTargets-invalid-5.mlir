
// A target pipeline that does not parse.

module {
  // expected-error @+1 {{'builtin.module' op has catalyst.target pipeline "builtin.module(no-such-pass)" that does not parse: MLIR Textual PassPipeline Parser:1:1: error: 'no-such-pass' does not refer to a registered pass or pass pipeline}}
  module @t attributes {catalyst.target = {pipeline = "builtin.module(no-such-pass)"}} {
  }
}

