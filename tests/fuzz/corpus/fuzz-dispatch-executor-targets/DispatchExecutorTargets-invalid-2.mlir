
// Every such module is reported.

module {
  // expected-error @+1 {{'builtin.module' op is dispatched to 127.0.0.1:4711 but has no catalyst.object_file}}
  module @a attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
  // expected-error @+1 {{'builtin.module' op is dispatched to 10.0.0.1:1 but has no catalyst.object_file}}
  module @b attributes {catalyst.target = {}, catalyst.dispatch = {address = "10.0.0.1:1"}, catalyst.object_file = ""} {
  }
}

