
// An output buffer with an offset is rejected too.

func.func @offset_output(%s: !executor.session, %n: memref<1xi64>, %o: memref<4xf64, strided<[1], offset: ?>>) {
  // expected-error @+1 {{'executor.call' op operand of type 'memref<4xf64, strided<[1], offset: ?>>' must be a memref with the identity layout}}
  executor.call %s("sample")(%n, %o) {num_input_args = 1 : i32} : !executor.session, (memref<1xi64>, memref<4xf64, strided<[1], offset: ?>>) -> ()
  return
}

