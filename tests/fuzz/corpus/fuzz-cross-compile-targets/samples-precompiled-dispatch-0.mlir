// precompiled-dispatch.mlir: a dispatched module as Catalyst's
// cross-compile-targets leaves it.
//
// @prebuilt carries catalyst.dispatch and catalyst.object_file but no
// catalyst.target: its object was compiled elsewhere (here from
// samples/kernels/precompiled.c by a C compiler; the build writes it to
// build/samples/precompiled.o), and the module only declares the entry the
// host launches. cross-compile-targets leaves it alone;
// dispatch-executor-targets opens the session, ships the object in setup()
// and turns the launch into executor.launch.
//
// catalyst.object_file is relative here, so executor-compile looks for
// precompiled.o in its working directory and embeds it in the program (with
// --no-embed-objects the program looks there at run time):
//
// runnable: from the repository, with an executor at 127.0.0.1:PORT
//   cd build/samples && executor-compile ../../samples/precompiled-dispatch.mlir -o prog
//   EXECUTOR_ADDRESS_MAP=ADDR:PORT=127.0.0.1:PORT ./prog
//
// scripts/demo.sh labels the result:
//   result: @prebuilt::@cube, the object from a C compiler

module @host {
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

  func.func @setup() {
    return
  }

  func.func @main() {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
    %y = catalyst.launch_kernel @prebuilt::@cube(%x) : (tensor<4xf64>) -> tensor<4xf64>
    %y_m = bufferization.to_buffer %y : tensor<4xf64> to memref<4xf64>
    %y_u = memref.cast %y_m : memref<4xf64> to memref<*xf64>
    func.call @printMemrefF64(%y_u) : (memref<*xf64>) -> ()
    return
  }

  module @prebuilt attributes {catalyst.dispatch = {address = "ADDR:PORT"}, catalyst.object_file = "precompiled.o"} {
    func.func private @cube(memref<4xf64>) -> memref<4xf64>
  }
}
