// One-shot bufferize on executor.call: tensor inputs become their buffers,
// a tensor output (after num_input_args) becomes the buffer its result
// aliases (destination-passing style, copied only when the tensor is used
// again), and further results become new buffers appended to the outputs.
//

// The destination is a fresh tensor: its buffer is written in place and
// returned, with no copy.
func.func @destination(%s: !executor.session, %in: tensor<4xf64>) -> tensor<4xf64> {
  %init = tensor.empty() : tensor<4xf64>
  %r = executor.call %s("scale")(%in, %init) {num_input_args = 1 : i32} : !executor.session, (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// The destination is still needed after the call: the call fills a copy.
func.func @destination_used_again(%s: !executor.session, %x: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %r = executor.call %s("accumulate")(%x) {num_input_args = 0 : i32} : !executor.session, (tensor<4xf64>) -> tensor<4xf64>
  return %r, %x : tensor<4xf64>, tensor<4xf64>
}

// Tensor destinations, a memref output and an allocated result together: the
// operands keep their order and the new buffer comes last.
func.func @mixed(%s: !executor.session, %in: tensor<4xf64>, %buf: memref<2xi32>) -> (tensor<3xi8>, tensor<1xf64>) {
  %init = tensor.empty() : tensor<3xi8>
  %r:2 = executor.call %s("mixed")(%in, %buf, %init) {num_input_args = 1 : i32} : !executor.session, (tensor<4xf64>, memref<2xi32>, tensor<3xi8>) -> (tensor<3xi8>, tensor<1xf64>)
  return %r#0, %r#1 : tensor<3xi8>, tensor<1xf64>
}
