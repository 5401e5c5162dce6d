module @host {
  func.func @main(%x: i128) -> i128 {
    %y = catalyst.launch_kernel @t::@k(%x) : (i128) -> i128
    return %y : i128
  }
  module @t attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:1"}} {
    func.func @k(%x: i128) -> i128 {
      return %x : i128
    }
  }
}
