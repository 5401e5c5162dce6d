
module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) -> memref<4xf64> {
    return %x : memref<4xf64>
  }
}
func.func @operand_shape_mismatch(%x: memref<8xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op operand types ('memref<8xf64>') do not match the inputs ('memref<4xf64>') of @mod::@entry}}
  %r = catalyst.launch_kernel @mod::@entry(%x) : (memref<8xf64>) -> memref<4xf64>
  return
}

