
module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>, %y: memref<4xf64>) {
    return
  }
}
func.func @operand_count_mismatch(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op operand types ('memref<4xf64>') do not match the inputs ('memref<4xf64>', 'memref<4xf64>') of @mod::@entry}}
  catalyst.launch_kernel @mod::@entry(%x) : (memref<4xf64>) -> ()
  return
}

