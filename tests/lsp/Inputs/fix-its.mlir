module @host {
  func.func @main(%x: memref<4xf64>) {
    %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<8xf64>
    return
  }
  module @compute attributes {catalyst.target = {}} {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
}
// -----
func.func @open() {
  %s = executor.open(" 127.0.0.1: 4711 ") : !executor.session
  return
}
// -----
module @host {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @plain::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @plain {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
}
// -----
module @host {
  module @remote attributes {catalyst.target = {}, catalyst.dispatch = {address = "[fe80::1] :4711"}} {
  }
}
// -----
func.func @call(%s: !executor.session, %a: tensor<4xf64>, %o: tensor<4xf64>) -> tensor<4xf64> {
  %r = executor.call %s("kernel")(%a, %o) {num_input_args = 7 : i32} : !executor.session, (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}
