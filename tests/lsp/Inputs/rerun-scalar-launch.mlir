// An edited snapshot that dispatch-executor-targets rejects (a scalar
// operand): its error is at the launch's line in this text.
module @host {
  func.func @main(%x: f64) -> f64 {
    %y = catalyst.launch_kernel @t::@k(%x) : (f64) -> f64
    return %y : f64
  }
  module @t attributes {catalyst.dispatch = {address = "127.0.0.1:1"}, catalyst.object_file = "/tmp/ws/t/t.o", catalyst.target = {}} {
    func.func private @k(f64) -> f64
  }
}
