// all-ops.mlir: one host program that uses every executor op.
//
// @main opens a session with the executor at ADDR:PORT (the runtime maps the
// placeholder to a real address through EXECUTOR_ADDRESS_MAP), ships the
// object cross-compiled from a target module, starts its () -> () @warmup
// entry in the background, runs @square on x = [1, 2, 3, 4] and waits for
// its result, calls the symbol `scale_into` of the same object in
// destination-passing form (one input, one output buffer the callee fills),
// waits for the warmup, closes the session and prints both results.
//
// This is the bufferized form that one-shot-bufferize and
// dispatch-executor-targets leave behind: every buffer is a memref.
// `executor-opt --convert-executor-to-llvm` lowers each executor op to one
// call of the __catalyst__executor__* runtime.

module {
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.000000e+00 : f64

    // x = [1, 2, 3, 4]
    %x = memref.alloc() : memref<4xf64>
    scf.for %i = %c0 to %c4 step %c1 {
      %i64 = arith.index_cast %i : index to i64
      %f = arith.sitofp %i64 : i64 to f64
      %v = arith.addf %f, %one : f64
      memref.store %v, %x[%i] : memref<4xf64>
    }

    %s = executor.open("ADDR:PORT") : !executor.session
    executor.send_binary %s("/tmp/executor-studio/compute/compute.o") : !executor.session

    // Runs in the background while the host goes on.
    %t = executor.launch_async %s("warmup", "/tmp/executor-studio/compute/compute.o") : !executor.session -> !executor.token

    // squares = x * x, computed on the executor.
    %squares = executor.launch %s("square", "/tmp/executor-studio/compute/compute.o")(%x) : !executor.session, (memref<4xf64>) -> memref<4xf64>

    // scaled = 0.5 * squares, written into a buffer the host owns.
    %scaled = memref.alloc() : memref<4xf64>
    executor.call %s("scale_into")(%squares, %scaled) {num_input_args = 1 : i32} : !executor.session, (memref<4xf64>, memref<4xf64>) -> ()

    executor.await %t : !executor.token
    executor.close %s : !executor.session

    %squares_u = memref.cast %squares : memref<4xf64> to memref<*xf64>
    func.call @printMemrefF64(%squares_u) : (memref<*xf64>) -> ()
    %scaled_u = memref.cast %scaled : memref<4xf64> to memref<*xf64>
    func.call @printMemrefF64(%scaled_u) : (memref<*xf64>) -> ()

    memref.dealloc %scaled : memref<4xf64>
    memref.dealloc %x : memref<4xf64>
    return
  }
}
