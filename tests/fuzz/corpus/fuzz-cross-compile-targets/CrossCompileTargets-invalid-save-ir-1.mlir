
// An unparsable target pipeline.

module {
  // expected-error @+2 {{'builtin.module' op target @t failed to lower with "builtin.module(no-such-pass)"}}
  // expected-note-re @+1 {{invalid pipeline "builtin.module(no-such-pass)": 'no-such-pass' is not a registered pass or pass pipeline}}
  module @t attributes {catalyst.target = {pipeline = "builtin.module(no-such-pass)"}} {
  }
}
