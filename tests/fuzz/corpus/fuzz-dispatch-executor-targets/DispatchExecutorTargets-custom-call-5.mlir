
module @scalar_operand {
  func.func @main(%n: i64) {
    // expected-error @+1 {{'catalyst.custom_call' op operand of type 'i64' cannot be sent to an executor: executor.call takes ranked tensors and memrefs only (pass a scalar as tensor<1xT>)}}
    catalyst.custom_call fn("foo") (%n) {backend_config = {dispatch = "127.0.0.1:4711"}} : (i64) -> ()
    return
  }
}

