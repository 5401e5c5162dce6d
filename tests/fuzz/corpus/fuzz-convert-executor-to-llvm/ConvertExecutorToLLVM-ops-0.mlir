// Every executor op becomes one llvm.call of its __catalyst__executor__*
// runtime function; sessions and tokens are i64; strings are private
// constant NUL-terminated globals.
//

// No executor op is left anywhere.
// NOOPS-NOT: {{^ *(%[^ ]+ = )?executor\.}}

// The runtime declarations, with the C ABI of Catalyst's ExecutorCAPI.h
// (size_t is i64).
// The strings.
// A launch and an await store their .mlir place in the program's weak
// __executor_studio_call_site first, for the runtime's error message.

func.func @session_ops() {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  executor.send_binary %s("/ws/compute/compute.o") : !executor.session
  %t = executor.launch_async %s("warmup", "/ws/compute/compute.o") : !executor.session -> !executor.token
  executor.await %t : !executor.token
  executor.close %s : !executor.session
  return
}

// A launch passes arrays of pointers to the memref descriptors, their ranks
// and element sizes, for the inputs and the outputs; the output descriptors
// are read back after the call.

// Input 0: memref<4xf64>, rank 1, 8-byte elements.
// Input 1: memref<2x3xi32>, rank 2, 4-byte elements.
// Output 0: memref<f32>, rank 0, 4-byte elements; not stored, filled.
// Output 1: memref<5xindex>, rank 1, 8-byte elements.
func.func @launch(%a: memref<4xf64>, %b: memref<2x3xi32>) -> (memref<f32>, memref<5xindex>) {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  %r:2 = executor.launch %s("pair", "/ws/compute/compute.o")(%a, %b) : !executor.session, (memref<4xf64>, memref<2x3xi32>) -> (memref<f32>, memref<5xindex>)
  return %r#0, %r#1 : memref<f32>, memref<5xindex>
}

// A launch without inputs or outputs still passes (one-element) arrays and
// zero counts.

func.func @launch_nothing(%s: !executor.session) {
  executor.launch %s("warmup", "/ws/compute/compute.o")() : !executor.session, () -> ()
  return
}

// A call with nothing to send or receive: an empty packed buffer.

func.func @call_nothing(%s: !executor.session) {
  executor.call %s("reset")() {num_input_args = 0 : i32} : !executor.session, () -> ()
  return
}
