module @host {
  func.func @main(%x: f64) -> f64 {
    %y = catalyst.launch_kernel @t::@k(%x) : (f64) -> f64
    return %y : f64
  }
  module @t attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:1"}} {
    func.func @k(%x: f64) -> f64 {
      return %x : f64
    }
  }
}
