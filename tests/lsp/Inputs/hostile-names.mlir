module @host {
  func.func @main() {
    catalyst.launch_kernel @"../../../../../../tmp/lsp-hostile-victim"::@f() : () -> ()
    return
  }
  module @"../../../../../../tmp/lsp-hostile-victim" attributes {catalyst.target} {
    func.func @f() {
      return
    }
  }
}
