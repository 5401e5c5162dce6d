
module @prog {
  // expected-error @+1 {{catalyst.target module name ".." is a directory reference}}
  module @".." attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

