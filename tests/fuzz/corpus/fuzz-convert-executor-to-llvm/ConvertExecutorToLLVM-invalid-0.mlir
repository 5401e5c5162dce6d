// Every error of convert-executor-to-llvm.
//

// An executor.call that was not bufferized.

func.func @tensor_results(%s: !executor.session) -> tensor<4xf64> {
  // expected-error @+1 {{'executor.call' op still takes or returns tensors; run one-shot-bufferize before convert-executor-to-llvm so it takes memrefs and its output buffers as operands}}
  %r = executor.call %s("sample")() : !executor.session, () -> tensor<4xf64>
  return %r : tensor<4xf64>
}

