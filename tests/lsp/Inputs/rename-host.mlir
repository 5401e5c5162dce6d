module @host {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %z = catalyst.launch_kernel @compute::@square(%y) : (memref<4xf64>) -> memref<4xf64>
    cf.br ^bb1(%z : memref<4xf64>)
  ^bb1(%w: memref<4xf64>):
    return %w : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}} {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
}
