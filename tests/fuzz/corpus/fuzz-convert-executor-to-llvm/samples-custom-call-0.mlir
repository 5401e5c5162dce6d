// custom-call.mlir: a library function on the executor, the way Catalyst
// writes it.
//
// @main squares [1, ..., 8] with the kernel @compute::@square on the
// executor, then asks the executor's library function `sample_moments`
// (samples/plugins/sample_moments.c, loaded with --plugin) for the mean and
// variance of the squares. The library call is Catalyst's
// catalyst.custom_call with backend_config = {dispatch = ""}: the program's
// only executor, the address of @compute.
//
// The host is written before bufferization (tensors). One-shot bufferize
// turns the custom_call into destination-passing style (the result becomes
// an output buffer after number_original_arg = 1), and
// dispatch-executor-targets turns it into executor.call on the session that
// runs @compute (bufferized as the default pipeline does it: across
// function boundaries, identity layouts):
//
// runnable:
//   executor-opt custom-call.mlir \
//     --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
//     --cross-compile-targets=workspace=/tmp/ws --dispatch-executor-targets
//
// scripts/demo.sh labels the results:
//   result: @compute::@square, on the executor
//   result: sample_moments (mean, variance), a library call on the executor

module @host {
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

  func.func @main() {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf64>
    %squares = catalyst.launch_kernel @compute::@square(%x) : (tensor<8xf64>) -> tensor<8xf64>
    %moments = catalyst.custom_call fn("sample_moments") (%squares) {backend_config = {dispatch = ""}} : (tensor<8xf64>) -> tensor<2xf64>

    %squares_m = bufferization.to_buffer %squares : tensor<8xf64> to memref<8xf64>
    %squares_u = memref.cast %squares_m : memref<8xf64> to memref<*xf64>
    func.call @printMemrefF64(%squares_u) : (memref<*xf64>) -> ()
    %moments_m = bufferization.to_buffer %moments : tensor<2xf64> to memref<2xf64>
    %moments_u = memref.cast %moments_m : memref<2xf64> to memref<*xf64>
    func.call @printMemrefF64(%moments_u) : (memref<*xf64>) -> ()
    return
  }

  // The program's single executor.
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @square(%x: tensor<8xf64>) -> tensor<8xf64> {
      %init = tensor.empty() : tensor<8xf64>
      %y = linalg.mul ins(%x, %x : tensor<8xf64>, tensor<8xf64>) outs(%init : tensor<8xf64>) -> tensor<8xf64>
      return %y : tensor<8xf64>
    }
  }
}
