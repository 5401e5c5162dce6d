
// A dispatched target may be for any machine LLVM knows.

module {
  // expected-error @+1 {{'builtin.module' op has unknown triple "bogus-unknown-none": No available targets are compatible with triple "bogus-unknown-none"}}
  module @bogus attributes {catalyst.target = {triple = "bogus-unknown-none"}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

