// executor.call in destination-passing form: the inputs are packed into one
// malloc'ed buffer (memcpy each, in order), __catalyst__executor__call_wrapper
// sends it and stores the reply pointer and size in two slots, the packed
// buffer is freed, __executor_check_call_reply stops the program unless the
// status is 0 and the reply is exactly as long as the outputs, each output
// buffer is copied from its slice of the reply, in order, and the reply is
// released with __catalyst__executor__free_result.
//

// Input 0: 8 bytes x size 0, from aligned pointer + offset.
// Input 1: 4 bytes x size 0 x size 1.
// Outputs: the declared result, then the out buffer.
// Sizes: inputs in, outputs expected back.
// malloc(total + 1): never malloc(0).
func.func @call(%s: !executor.session, %a: memref<1xi64>, %b: memref<2x3xf32>, %r: memref<1xi32>, %o: memref<8xf64>) {
  executor.call %s("sample")(%a, %b, %r, %o) {num_input_args = 2 : i32} : !executor.session, (memref<1xi64>, memref<2x3xf32>, memref<1xi32>, memref<8xf64>) -> ()
  return
}

// Without num_input_args every operand is an input: an empty reply expected.

func.func @all_inputs(%s: !executor.session, %a: memref<4xf64>) {
  executor.call %s("log")(%a) : !executor.session, (memref<4xf64>) -> ()
  return
}

// Dynamic shapes: the sizes are read from the descriptors at run time.

func.func @dynamic(%s: !executor.session, %a: memref<?xf64>, %o: memref<?xf64>) {
  executor.call %s("copy")(%a, %o) {num_input_args = 1 : i32} : !executor.session, (memref<?xf64>, memref<?xf64>) -> ()
  return
}

// The sample program: after bufferization, lower-runtime-dispatch's call
// lowers to the same sequence.

func.func @from_runtime_call(%s: !executor.session, %n: memref<1xi64>, %str: memref<256xi8>, %r: memref<1xi32>, %h: memref<8xf64>) {
  executor.call %s("sample")(%n, %str, %r, %h) {num_input_args = 2 : i32} : !executor.session, (memref<1xi64>, memref<256xi8>, memref<1xi32>, memref<8xf64>) -> ()
  return
}
