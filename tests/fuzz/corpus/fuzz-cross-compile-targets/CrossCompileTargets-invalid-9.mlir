
// A local target's entry becomes a host symbol: a host function of that
// name is a clash.

module {
  func.func @sum(%x: memref<4xf64>) -> memref<1xf64> {
    %y = catalyst.launch_kernel @local::@sum(%x) : (memref<4xf64>) -> memref<1xf64>
    return %y : memref<1xf64>
  }
  // expected-error @+1 {{'builtin.module' op local target entry @sum clashes with a host symbol of the same name; rename one of them (local objects are linked into the host)}}
  module @local attributes {catalyst.target} {
    func.func @sum(%x: memref<4xf64>) -> memref<1xf64> {
      %y = memref.alloc() : memref<1xf64>
      return %y : memref<1xf64>
    }
  }
}

