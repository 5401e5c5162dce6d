
func.func @too_deep_callee(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @a::@b::@c must name an entry of a nested target module as @module::@entry}}
  catalyst.launch_kernel @a::@b::@c(%x) : (memref<4xf64>) -> ()
  return
}

