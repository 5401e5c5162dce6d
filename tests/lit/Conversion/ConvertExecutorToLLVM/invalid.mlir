// Every error of convert-executor-to-llvm.
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics --convert-executor-to-llvm

// An executor.call that was not bufferized.

func.func @tensor_results(%s: !executor.session) -> tensor<4xf64> {
  // expected-error @+1 {{'executor.call' op still takes or returns tensors; run one-shot-bufferize before convert-executor-to-llvm so it takes memrefs and its output buffers as operands}}
  %r = executor.call %s("sample")() : !executor.session, () -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @tensor_results_memref_inputs(%s: !executor.session, %n: memref<1xi64>) -> (tensor<1xi32>, tensor<4xf64>) {
  // expected-error @+1 {{'executor.call' op still takes or returns tensors}}
  %r:2 = executor.call %s("sample")(%n) : !executor.session, (memref<1xi64>) -> (tensor<1xi32>, tensor<4xf64>)
  return %r#0, %r#1 : tensor<1xi32>, tensor<4xf64>
}

// -----

// The bytes of a call operand are copied as one block.

func.func @strided(%s: !executor.session, %m: memref<4xf64, strided<[2]>>) {
  // expected-error @+1 {{'executor.call' op operand of type 'memref<4xf64, strided<[2]>>' must be a memref with the identity layout: its bytes are copied as one block}}
  executor.call %s("sample")(%m) {num_input_args = 1 : i32} : !executor.session, (memref<4xf64, strided<[2]>>) -> ()
  return
}

// -----

// An output buffer with an offset is rejected too.

func.func @offset_output(%s: !executor.session, %n: memref<1xi64>, %o: memref<4xf64, strided<[1], offset: ?>>) {
  // expected-error @+1 {{'executor.call' op operand of type 'memref<4xf64, strided<[1], offset: ?>>' must be a memref with the identity layout}}
  executor.call %s("sample")(%n, %o) {num_input_args = 1 : i32} : !executor.session, (memref<1xi64>, memref<4xf64, strided<[1], offset: ?>>) -> ()
  return
}

// -----

// Element types without a fixed byte size.

func.func @call_vector_elements(%s: !executor.session, %m: memref<4xvector<4xf32>>) {
  // expected-error @+1 {{'executor.call' op operand of type 'memref<4xvector<4xf32>>' has an element type without a fixed size}}
  executor.call %s("sample")(%m) {num_input_args = 1 : i32} : !executor.session, (memref<4xvector<4xf32>>) -> ()
  return
}

// -----

func.func @launch_vector_elements(%s: !executor.session, %m: memref<4xvector<4xf32>>) {
  // expected-error @+1 {{'executor.launch' op has a memref of type 'memref<4xvector<4xf32>>' whose element type has no fixed size; launches move ints, floats, index and complex values}}
  %r = executor.launch %s("k", "/ws/k.o")(%m) : !executor.session, (memref<4xvector<4xf32>>) -> memref<4xf64>
  return
}

// -----

func.func @launch_vector_results(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch' op has a memref of type 'memref<4xvector<4xf32>>' whose element type has no fixed size}}
  %r = executor.launch %s("k", "/ws/k.o")() : !executor.session, () -> memref<4xvector<4xf32>>
  return
}

// -----

// A runtime function already declared, with another type than the C ABI's
// (Catalyst's ExecutorCAPI.h): close returns int64_t.

// expected-error @+1 {{'__catalyst__executor__close' is declared with type '!llvm.func<void (i64)>', but the executor runtime's C ABI (Catalyst's ExecutorCAPI.h) gives it the type '!llvm.func<i64 (i64)>'; remove the declaration or fix its type}}
llvm.func @__catalyst__executor__close(i64)
func.func @close_it(%s: !executor.session) {
  executor.close %s : !executor.session
  return
}

// -----

// The out_size of call_wrapper is a size_t *, not a size.

// expected-error @+1 {{'__catalyst__executor__call_wrapper' is declared with type '!llvm.func<void (i64, ptr, ptr, i64, ptr, i64)>', but the executor runtime's C ABI (Catalyst's ExecutorCAPI.h) gives it the type '!llvm.func<i32 (i64, ptr, ptr, i64, ptr, ptr)>'}}
llvm.func @__catalyst__executor__call_wrapper(i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64)
func.func @call_it(%s: !executor.session) {
  executor.call %s("reset")() {num_input_args = 0 : i32} : !executor.session, () -> ()
  return
}

// -----

// A symbol of another kind under a runtime function's name.

// expected-error @+1 {{'__catalyst__executor__open' is declared as a 'func.func', but the executor runtime's C ABI (Catalyst's ExecutorCAPI.h) gives it the type '!llvm.func<i64 (ptr)>'}}
func.func private @__catalyst__executor__open(!llvm.ptr) -> i64
func.func @open_it() {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  return
}
