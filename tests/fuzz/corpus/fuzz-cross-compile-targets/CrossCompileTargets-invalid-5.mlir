
// A target pipeline that does not parse.

module {
  // expected-error @+1 {{'builtin.module' op has catalyst.target pipeline "builtin.module(no-such-pass)" that does not parse: 'no-such-pass' is not a registered pass or pass pipeline}}
  module @t attributes {catalyst.target = {pipeline = "builtin.module(no-such-pass)"}} {
  }
}

