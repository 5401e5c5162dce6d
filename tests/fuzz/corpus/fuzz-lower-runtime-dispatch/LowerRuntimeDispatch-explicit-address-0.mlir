// lower-runtime-dispatch on calls that name their executor: sessions,
// operand marshalling, results.
//

// One call: an executor.open of the address at the start of the function and
// an executor.call of the callee on it.

func.func @single_call(%a: i64) {
  catalyst.runtime_call "reset"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}

// Several calls on one address share one open; a second address gets its
// own.

func.func @one_open_per_address(%a: i64) {
  catalyst.runtime_call "first"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  catalyst.runtime_call "second"(%a) {c_params = ["i64"], dispatch = "[::1]:5000"} : (i64) -> ()
  catalyst.runtime_call "third"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  catalyst.runtime_call "fourth"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}

// A function that opens the address already: its open is reused (and moved
// to the start so it dominates the call), no second one is added.

func.func @reuses_existing_open(%a: i64) {
  %c = arith.constant 1 : i64
  catalyst.runtime_call "step"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  %s = executor.open("127.0.0.1:4711") : !executor.session
  executor.close %s : !executor.session
  return
}

// An open of another address is not reused.

func.func @other_address_not_reused(%a: i64) {
  %s = executor.open("127.0.0.1:9999") : !executor.session
  catalyst.runtime_call "step"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  executor.close %s : !executor.session
  return
}

// Sessions are per function: each function opens its own.

func.func @first_function(%a: i64) {
  catalyst.runtime_call "a"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}
func.func @second_function(%a: i64) {
  catalyst.runtime_call "b"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}

// A call nested in a loop still gets its session at the function entry.

func.func @call_in_loop(%a: i64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    catalyst.runtime_call "tick"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  }
  return
}

// Scalars are converted to their declared width and wrapped in a one-element
// tensor each; a str becomes a 256-byte NUL-padded constant, in parameter
// order.

// "ab" then 254 NUL bytes.
// Already of the declared width: no conversion.
func.func @marshalling(%i64: i64, %f64: f64, %idx: index, %ptr: !llvm.ptr, %i8: i8, %f16: f16, %i32: i32) {
  catalyst.runtime_call "marshal"(%i64, %f64, %idx, %ptr, %i8, %f16, %i32, %idx) {c_params = ["i32", "f32", "i64", "ptr", "str", "i64", "f64", "i32", "ptr"], c_strings = ["ab"], dispatch = "127.0.0.1:4711"} : (i64, f64, index, !llvm.ptr, i8, f16, i32, index) -> ()
  return
}

// Strings of up to 255 bytes fit (the last byte stays NUL); an empty string
// is all NULs. Two strings keep their order.

// 255 x 'x' and one NUL.
func.func @strings() {
  catalyst.runtime_call "log"() {c_params = ["str", "str"], c_strings = ["", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"], dispatch = "127.0.0.1:4711"} : () -> ()
  return
}

// The declared result comes back first as tensor<1xT> and is extracted; the
// out buffers follow, in order, and replace the runtime_call's results.
// The out operands only give the shape: they are not sent.

func.func @results(%n: i64, %h: tensor<8xf64>, %m: tensor<2x3xi32>) -> (i32, tensor<8xf64>, tensor<2x3xi32>) {
  %count, %hist, %mat = catalyst.runtime_call "sample"(%h, %n, %m) {c_params = ["out", "i64", "out"], dispatch = "127.0.0.1:4711"} : (tensor<8xf64>, i64, tensor<2x3xi32>) -> (i32, tensor<8xf64>, tensor<2x3xi32>)
  return %count, %hist, %mat : i32, tensor<8xf64>, tensor<2x3xi32>
}

// Only out buffers: no extract.

func.func @outs_only(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = catalyst.runtime_call "fill"(%t) {c_params = ["out"], dispatch = "127.0.0.1:4711"} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A float result.

func.func @float_result() -> f64 {
  %r = catalyst.runtime_call "mean"() {c_params = [], dispatch = "127.0.0.1:4711"} : () -> f64
  return %r : f64
}

// Calls without dispatch run on the host: untouched, and no session.

func.func @host_call(%a: i64) -> i32 {
  %r = catalyst.runtime_call "host_fn"(%a) {c_params = ["i32", "str"], c_strings = ["hi"]} : (i64) -> i32
  return %r : i32
}

// A mix: the dispatched call is lowered, the host one stays.

func.func @mixed(%a: i64) {
  catalyst.runtime_call "on_host"(%a) {c_params = ["i64"]} : (i64) -> ()
  catalyst.runtime_call "remote"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}
