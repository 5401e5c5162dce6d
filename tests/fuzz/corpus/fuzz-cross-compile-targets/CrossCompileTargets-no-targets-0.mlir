// Without catalyst.target modules the pass changes nothing and needs no
// workspace; with a workspace it does not create it.
//

// A nested module that is not a target is left alone.
module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = func.call @helper(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  func.func private @helper(memref<4xf64>) -> memref<4xf64>
  module @plain {
    func.func @inner() {
      return
    }
  }
}
