
module @memref_result {
  func.func @main() {
    // expected-error @+1 {{'catalyst.custom_call' op result of type 'memref<4xf64>' cannot come back from an executor: executor.call returns ranked tensors, or fills memref output buffers after number_original_arg}}
    %r = catalyst.custom_call fn("foo") () {backend_config = {dispatch = "127.0.0.1:4711"}} : () -> memref<4xf64>
    return
  }
}

