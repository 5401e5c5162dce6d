
module @mod attributes {catalyst.target = {}} {
  memref.global "private" @table : memref<4xf64> = dense<0.0>
}
func.func @not_a_func() {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @mod::@table is a 'memref.global', not a func.func}}
  catalyst.launch_kernel @mod::@table() : () -> ()
  return
}

