// An executor.call with tensor operands (the form lower-runtime-dispatch
// emits, when one-shot-bufferize was not run) is explained, not just
// "failed to legalize".
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics --convert-executor-to-llvm

func.func @tensors_in_and_out(%s: !executor.session, %n: tensor<1xi64>) -> tensor<4xf64> {
  // expected-error @+1 {{'executor.call' op still takes or returns tensors; run one-shot-bufferize before convert-executor-to-llvm so it takes memrefs and its output buffers as operands}}
  %r = executor.call %s("sample")(%n) : !executor.session, (tensor<1xi64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @tensor_in(%s: !executor.session, %n: tensor<1xi64>) {
  // expected-error @+1 {{'executor.call' op still takes or returns tensors; run one-shot-bufferize}}
  executor.call %s("log")(%n) : !executor.session, (tensor<1xi64>) -> ()
  return
}
