module @host {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @a::@k(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @a attributes {catalyst.target = {}} {
    func.func @k(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
  module attributes {catalyst.target = {}} {
  }
  module attributes {catalyst.target = {}} {
  }
}
