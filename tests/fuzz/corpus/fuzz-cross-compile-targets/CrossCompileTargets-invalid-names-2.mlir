
module @prog {
  // expected-error @+1 {{catalyst.target module name "a\0Ab" contains a control character}}
  module @"a\0Ab" attributes {catalyst.target} {
  }
}

