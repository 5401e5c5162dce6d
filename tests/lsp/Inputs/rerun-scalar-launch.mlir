// An edited snapshot that dispatch-executor-targets rejects (an i128
// operand, which no executor carries): its error is at the launch's line in this text.
module @host {
  func.func @main(%x: i128) -> i128 {
    %y = catalyst.launch_kernel @t::@k(%x) : (i128) -> i128
    return %y : i128
  }
  module @t attributes {catalyst.dispatch = {address = "127.0.0.1:1"}, catalyst.object_file = "/tmp/ws/t/t.o", catalyst.target = {}} {
    func.func private @k(i128) -> i128
  }
}
