
// A pipeline anchored on another operation does not parse either.

module {
  // expected-error @+1 {{has catalyst.target pipeline "func.func(canonicalize)" that does not parse: pipeline is anchored on 'func.func' but runs on 'builtin.module'}}
  module @t attributes {catalyst.target = {pipeline = "func.func(canonicalize)"}} {
  }
}

