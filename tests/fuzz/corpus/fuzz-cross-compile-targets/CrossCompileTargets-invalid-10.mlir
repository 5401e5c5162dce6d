
// A host declaration of another type clashes too.

module {
  func.func private @sum(memref<8xf64>) -> memref<1xf64>
  func.func @main(%x: memref<4xf64>) -> memref<1xf64> {
    %y = catalyst.launch_kernel @local::@sum(%x) : (memref<4xf64>) -> memref<1xf64>
    return %y : memref<1xf64>
  }
  // expected-error @+1 {{local target entry @sum clashes with a host symbol of the same name}}
  module @local attributes {catalyst.target} {
    func.func @sum(%x: memref<4xf64>) -> memref<1xf64> {
      %y = memref.alloc() : memref<1xf64>
      return %y : memref<1xf64>
    }
  }
}
