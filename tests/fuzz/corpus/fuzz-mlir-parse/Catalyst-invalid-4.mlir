
// A launch into a module that does not exist is caught while typing, not at
// LLVM translation.
func.func @unresolved(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @cpu::@grid: there is no module @cpu in scope; launches name a nested builtin.module tagged catalyst.target (or dispatched with catalyst.dispatch)}}
  catalyst.launch_kernel @cpu::@grid(%x) : (memref<4xf64>) -> ()
  return
}

