// Each run of cross-compile-targets writes {workspace}/{root}.objects anew, so
// running it twice on one workspace lists every local object once.
//


module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @local::@id(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @local attributes {catalyst.target} {
    func.func @id(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
}
