
module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) {
    return
  }
}
func.func @unranked_tensor_mismatch(%t: tensor<*xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op operand types ('tensor<*xf64>') do not match the inputs ('memref<4xf64>') of @mod::@entry}}
  catalyst.launch_kernel @mod::@entry(%t) : (tensor<*xf64>) -> ()
  return
}

