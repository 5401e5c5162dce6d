
//===----------------------------------------------------------------------===//
// Operand and result types (ODS constraints)
//===----------------------------------------------------------------------===//

func.func @launch_tensor_input(%s: !executor.session, %t: tensor<4xf64>) {
  // expected-error @+1 {{'executor.launch' op operand #1 must be variadic of memref of any type values, but got 'tensor<4xf64>'}}
  executor.launch %s("square", "/tmp/a.o")(%t) : !executor.session, (tensor<4xf64>) -> ()
  return
}

