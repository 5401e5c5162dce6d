// Every error of catalyst.launch_kernel, catalyst.runtime_call and the
// catalyst.* attributes, one per chunk.
//

//===----------------------------------------------------------------------===//
// catalyst.launch_kernel
//===----------------------------------------------------------------------===//

module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) -> memref<4xf64> {
    return %x : memref<4xf64>
  }
}
func.func @flat_callee(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @entry must name an entry of a nested target module as @module::@entry}}
  %r = catalyst.launch_kernel @entry(%x) : (memref<4xf64>) -> memref<4xf64>
  return
}

