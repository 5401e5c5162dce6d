// Two local targets may not share an entry name: both objects would define it
// in the host executable.
//

module @prog {
  func.func @main(%x: memref<4xf64>) -> (memref<4xf64>, memref<4xf64>) {
    %a = catalyst.launch_kernel @first::@f(%x) : (memref<4xf64>) -> memref<4xf64>
    %b = catalyst.launch_kernel @second::@f(%x) : (memref<4xf64>) -> memref<4xf64>
    return %a, %b : memref<4xf64>, memref<4xf64>
  }
  module @first attributes {catalyst.target} {
    func.func @f(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
  // expected-error @+1 {{local target entry @f is also an entry of local target @first; both objects would define it when linked into the host: rename one of them}}
  module @second attributes {catalyst.target} {
    func.func @f(%x: memref<4xf64>) -> memref<4xf64> {
      %y = memref.alloc() : memref<4xf64>
      return %y : memref<4xf64>
    }
  }
}
