
//===----------------------------------------------------------------------===//
// executor.call
//===----------------------------------------------------------------------===//

func.func @call_empty_symbol(%s: !executor.session, %a: tensor<4xf64>) {
  // expected-error @+1 {{'executor.call' op symbol is empty; name the function to invoke on the executor}}
  executor.call %s("")(%a) : !executor.session, (tensor<4xf64>) -> ()
  return
}

