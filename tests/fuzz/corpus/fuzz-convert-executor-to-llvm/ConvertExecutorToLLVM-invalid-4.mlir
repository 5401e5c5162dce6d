
// Element types without a fixed byte size.

func.func @call_vector_elements(%s: !executor.session, %m: memref<4xvector<4xf32>>) {
  // expected-error @+1 {{'executor.call' op operand of type 'memref<4xvector<4xf32>>' has an element type without a fixed size}}
  executor.call %s("sample")(%m) {num_input_args = 1 : i32} : !executor.session, (memref<4xvector<4xf32>>) -> ()
  return
}

