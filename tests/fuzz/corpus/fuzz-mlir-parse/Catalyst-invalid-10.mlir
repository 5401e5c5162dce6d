
module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) {
    return
  }
}
func.func @tensor_element_type_mismatch(%t: tensor<4xf32>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op operand types ('tensor<4xf32>') do not match the inputs ('memref<4xf64>') of @mod::@entry}}
  catalyst.launch_kernel @mod::@entry(%t) : (tensor<4xf32>) -> ()
  return
}

