
// A module named `unnamed` and one without a name collide the same way.

module {
  // expected-note @+1 {{first target @unnamed is here}}
  module @unnamed attributes {catalyst.target} {
  }
  // expected-error @+1 {{duplicate catalyst.target module name 'unnamed'}}
  module attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

