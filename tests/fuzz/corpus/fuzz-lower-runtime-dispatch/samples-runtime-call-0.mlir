// runtime-call.mlir: a C runtime function called on the program's executor.
//
// @main calls the C function `sample_histogram(int64_t shots,
// int64_t device, const char *basis, double scale, double *histogram)`,
// which returns an int32_t count and fills an 8-bin histogram. The call
// carries `dispatch = ""`, so lower-runtime-dispatch binds it to the
// program's single executor: the address in the catalyst.dispatch of
// @compute (ADDR:PORT). The c_params exercise every kind of parameter:
//   "i64"  the next operand, a scalar (shots);
//   "ptr"  the next operand, passed as a 64-bit integer (a device handle);
//   "str"  the next entry of c_strings (no operand);
//   "f64"  the next operand, converted from f32 to the declared width;
//   "out"  the next operand, a tensor giving the shape of the buffer the
//          callee fills; it comes back as a result after the declared one.
// The histogram is then normalised by @compute::@normalize on the same
// executor, and the count and the normalised histogram are printed.
//
// The host is written before bufferization (tensors): lower-runtime-dispatch
// runs first and one-shot-bufferize turns its executor.call into the
// destination-passing form.
//
// runnable:
//   executor-opt runtime-call.mlir --lower-runtime-dispatch
//
// scripts/demo.sh labels the results:
//   result: the count sample_histogram returned (on the executor)
//   result: the histogram, normalised by @compute::@normalize

module @host {
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

  func.func @main() {
    %c0 = arith.constant 0 : index
    %shots = arith.constant 1000 : i64
    %device = arith.constant 0 : i64
    %scale = arith.constant 1.000000e+00 : f32
    %histogram = tensor.empty() : tensor<8xf64>

    %count, %filled = catalyst.runtime_call "sample_histogram"(%shots, %device, %scale, %histogram) {c_params = ["i64", "ptr", "str", "f64", "out"], c_strings = ["z-basis"], dispatch = ""} : (i64, i64, f32, tensor<8xf64>) -> (i32, tensor<8xf64>)

    %normalized = catalyst.launch_kernel @compute::@normalize(%filled) : (tensor<8xf64>) -> tensor<8xf64>

    %count_f = arith.sitofp %count : i32 to f64
    %count_m = memref.alloc() : memref<1xf64>
    memref.store %count_f, %count_m[%c0] : memref<1xf64>
    %count_u = memref.cast %count_m : memref<1xf64> to memref<*xf64>
    func.call @printMemrefF64(%count_u) : (memref<*xf64>) -> ()
    memref.dealloc %count_m : memref<1xf64>

    %normalized_m = bufferization.to_buffer %normalized : tensor<8xf64> to memref<8xf64>
    %normalized_u = memref.cast %normalized_m : memref<8xf64> to memref<*xf64>
    func.call @printMemrefF64(%normalized_u) : (memref<*xf64>) -> ()
    return
  }

  // The program's single executor; its kernels run there.
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    // y = x / sum(x), or x when the sum is zero.
    func.func @normalize(%x: memref<8xf64>) -> memref<8xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.000000e+00 : f64
      %one = arith.constant 1.000000e+00 : f64
      %total = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f64) {
        %v = memref.load %x[%i] : memref<8xf64>
        %next = arith.addf %acc, %v : f64
        scf.yield %next : f64
      }
      %is_zero = arith.cmpf oeq, %total, %zero : f64
      %divisor = arith.select %is_zero, %one, %total : f64
      %y = memref.alloc() : memref<8xf64>
      scf.for %i = %c0 to %c8 step %c1 {
        %v = memref.load %x[%i] : memref<8xf64>
        %n = arith.divf %v, %divisor : f64
        memref.store %n, %y[%i] : memref<8xf64>
      }
      return %y : memref<8xf64>
    }
  }
}
