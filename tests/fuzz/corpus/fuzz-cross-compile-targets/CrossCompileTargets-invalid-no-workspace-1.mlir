
module @prog {
  // expected-error @+2 {{Missing `workspace` option for target cross-compilation: target @a}}
  // expected-note @+1 {{1 more catalyst.target module(s) need it too}}
  module @a attributes {catalyst.target} {
  }
  module @b attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

