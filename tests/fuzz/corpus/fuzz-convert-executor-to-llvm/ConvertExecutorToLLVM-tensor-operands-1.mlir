
func.func @tensor_in(%s: !executor.session, %n: tensor<1xi64>) {
  // expected-error @+1 {{'executor.call' op still takes or returns tensors; run one-shot-bufferize}}
  executor.call %s("log")(%n) : !executor.session, (tensor<1xi64>) -> ()
  return
}
