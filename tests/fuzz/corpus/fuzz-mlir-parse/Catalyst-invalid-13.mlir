
module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) -> memref<4xf64> {
    return %x : memref<4xf64>
  }
}
func.func @result_missing(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op result types () do not match the results ('memref<4xf64>') of @mod::@entry}}
  catalyst.launch_kernel @mod::@entry(%x) : (memref<4xf64>) -> ()
  return
}

