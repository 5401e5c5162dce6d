// The errors of cross-compile-targets that need a workspace to be reached.
//

// Two targets with one name would write one object: modules without a name
// are both `unnamed`.

module {
  // expected-note @+1 {{first target @unnamed is here}}
  module attributes {catalyst.target} {
  }
  // expected-error @+1 {{'builtin.module' op duplicate catalyst.target module name 'unnamed': both would compile to unnamed/unnamed.o; give each target its own sym_name}}
  module attributes {catalyst.target} {
  }
}

