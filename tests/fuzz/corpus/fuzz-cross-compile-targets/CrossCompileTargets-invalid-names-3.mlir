
// The root module's name names the linker manifest.
module @"../victim" {
  module @t attributes {catalyst.target} {
  }
}
