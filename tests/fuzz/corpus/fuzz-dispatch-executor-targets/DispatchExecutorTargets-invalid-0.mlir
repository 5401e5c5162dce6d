// Every error of dispatch-executor-targets.
//

// A dispatched module that was not compiled.

module {
  // expected-error @+1 {{'builtin.module' op is dispatched to 127.0.0.1:4711 but has no catalyst.object_file; run cross-compile-targets first}}
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

