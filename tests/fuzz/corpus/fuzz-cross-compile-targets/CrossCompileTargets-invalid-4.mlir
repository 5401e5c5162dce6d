
// A launch naming a function its target lacks, from inside a sibling module:
// the symbol verifier looks through the enclosing symbol tables.

module {
  module @other {
    func.func @m() {
      // expected-error @+1 {{'catalyst.launch_kernel' op callee @t::@missing: module @t has no function @missing}}
      catalyst.launch_kernel @t::@missing() : () -> ()
      return
    }
  }
  module @t attributes {catalyst.target} {
    func.func @f() {
      return
    }
  }
}

