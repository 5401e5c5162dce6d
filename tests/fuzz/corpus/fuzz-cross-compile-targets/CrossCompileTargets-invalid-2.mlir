
// A local target is linked into the host: it must be for the host.

module {
  // expected-error-re @+1 {{'builtin.module' op is a local target for triple "aarch64-unknown-linux-gnu" but the host is "{{.+}}": only dispatched targets (catalyst.dispatch) may be cross-compiled for another machine}}
  module @arm attributes {catalyst.target = {triple = "aarch64-unknown-linux-gnu"}} {
  }
}

