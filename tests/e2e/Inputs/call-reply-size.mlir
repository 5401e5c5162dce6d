// executor.calls of the plugin sample_histogram (samples/plugins) whose
// reply does not fit their outputs; each entry makes one:
//   @short_reply: the input is not the 280 bytes sample_histogram reads,
//                 so it replies with nothing (0 bytes, 68 expected);
//   @long_reply:  a right input, but outputs of 4 + 8 bytes (68 come back);
//   @fits:        a right input and outputs: prints the count.
module @host {
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

  func.func private @request() -> memref<280xi8> {
    %c0 = arith.constant 0 : index
    %shots = arith.constant 72 : i64
    %m = memref.alloc() : memref<280xi8>
    %zero = arith.constant 0 : i8
    linalg.fill ins(%zero : i8) outs(%m : memref<280xi8>)
    %as_i64 = memref.view %m[%c0][] : memref<280xi8> to memref<35xi64>
    %c0i = arith.constant 0 : index
    memref.store %shots, %as_i64[%c0i] : memref<35xi64>
    // "z-basis" at byte 16, scale 1.0 at byte 272.
    %chars = arith.constant dense<[122, 45, 98, 97, 115, 105, 115]> : tensor<7xi8>
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    scf.for %i = %c0 to %c7 step %c1 {
      %ch = tensor.extract %chars[%i] : tensor<7xi8>
      %at = arith.addi %i, %c16 : index
      memref.store %ch, %m[%at] : memref<280xi8>
    }
    %one = arith.constant 1.0 : f64
    %as_f64 = memref.view %m[%c0][] : memref<280xi8> to memref<35xf64>
    %c34 = arith.constant 34 : index
    memref.store %one, %as_f64[%c34] : memref<35xf64>
    return %m : memref<280xi8>
  }

  func.func @short_reply() {
    %s = executor.open("ADDR:PORT") : !executor.session
    %in = memref.alloc() : memref<3xi64>
    %count = memref.alloc() : memref<1xi32>
    %bins = memref.alloc() : memref<8xf64>
    executor.call %s("sample_histogram")(%in, %count, %bins) {num_input_args = 1 : i32} : !executor.session, (memref<3xi64>, memref<1xi32>, memref<8xf64>) -> ()
    return
  }

  func.func @long_reply() {
    %s = executor.open("ADDR:PORT") : !executor.session
    %in = func.call @request() : () -> memref<280xi8>
    %count = memref.alloc() : memref<1xi32>
    %bins = memref.alloc() : memref<1xf64>
    executor.call %s("sample_histogram")(%in, %count, %bins) {num_input_args = 1 : i32} : !executor.session, (memref<280xi8>, memref<1xi32>, memref<1xf64>) -> ()
    return
  }

  func.func @fits() {
    %s = executor.open("ADDR:PORT") : !executor.session
    %in = func.call @request() : () -> memref<280xi8>
    %count = memref.alloc() : memref<1xi32>
    %bins = memref.alloc() : memref<8xf64>
    executor.call %s("sample_histogram")(%in, %count, %bins) {num_input_args = 1 : i32} : !executor.session, (memref<280xi8>, memref<1xi32>, memref<8xf64>) -> ()
    %u = memref.cast %count : memref<1xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
