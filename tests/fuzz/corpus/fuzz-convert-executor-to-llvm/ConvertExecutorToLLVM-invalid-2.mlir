
// The bytes of a call operand are copied as one block.

func.func @strided(%s: !executor.session, %m: memref<4xf64, strided<[2]>>) {
  // expected-error @+1 {{'executor.call' op operand of type 'memref<4xf64, strided<[2]>>' must be a memref with the identity layout: its bytes are copied as one block}}
  executor.call %s("sample")(%m) {num_input_args = 1 : i32} : !executor.session, (memref<4xf64, strided<[2]>>) -> ()
  return
}

