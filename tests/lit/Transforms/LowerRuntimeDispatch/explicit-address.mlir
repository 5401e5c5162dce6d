// lower-runtime-dispatch on calls that name their executor: sessions,
// operand marshalling, results.
//
// RUN: executor-opt %s --lower-runtime-dispatch | FileCheck %s

// One call: an executor.open of the address at the start of the function and
// an executor.call of the callee on it.

// CHECK-LABEL: func.func @single_call(
// CHECK-SAME:      %[[A:.+]]: i64)
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    %[[T:.+]] = tensor.from_elements %[[A]] : tensor<1xi64>
// CHECK-NEXT:    executor.call %[[S]]("reset"){{ ?}}(%[[T]]) : !executor.session, (tensor<1xi64>) -> (){{$}}
// CHECK-NEXT:    return
// CHECK-NOT:     catalyst.runtime_call
func.func @single_call(%a: i64) {
  catalyst.runtime_call "reset"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}

// Several calls on one address share one open; a second address gets its
// own.

// CHECK-LABEL: func.func @one_open_per_address(
// CHECK-DAG:     %[[S1:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-DAG:     %[[S2:.+]] = executor.open("[::1]:5000") : !executor.session
// CHECK-NOT:     executor.open
// CHECK:         executor.call %[[S1]]("first")
// CHECK:         executor.call %[[S2]]("second")
// CHECK:         executor.call %[[S1]]("third")
// CHECK:         executor.call %[[S1]]("fourth")
// CHECK-NOT:     executor.open
// CHECK:         return
func.func @one_open_per_address(%a: i64) {
  catalyst.runtime_call "first"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  catalyst.runtime_call "second"(%a) {c_params = ["i64"], dispatch = "[::1]:5000"} : (i64) -> ()
  catalyst.runtime_call "third"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  catalyst.runtime_call "fourth"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}

// A function that opens the address already: its open is reused (and moved
// to the start so it dominates the call), no second one is added.

// CHECK-LABEL: func.func @reuses_existing_open(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NOT:     executor.open
// CHECK:         executor.call %[[S]]("step")
// CHECK:         executor.close %[[S]] : !executor.session
// CHECK-NEXT:    return
func.func @reuses_existing_open(%a: i64) {
  %c = arith.constant 1 : i64
  catalyst.runtime_call "step"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  %s = executor.open("127.0.0.1:4711") : !executor.session
  executor.close %s : !executor.session
  return
}

// An open of another address is not reused.

// CHECK-LABEL: func.func @other_address_not_reused(
// CHECK-DAG:     %[[NEW:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-DAG:     %[[OLD:.+]] = executor.open("127.0.0.1:9999") : !executor.session
// CHECK:         executor.call %[[NEW]]("step")
// CHECK:         executor.close %[[OLD]]
func.func @other_address_not_reused(%a: i64) {
  %s = executor.open("127.0.0.1:9999") : !executor.session
  catalyst.runtime_call "step"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  executor.close %s : !executor.session
  return
}

// Sessions are per function: each function opens its own.

// CHECK-LABEL: func.func @first_function(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711")
// CHECK:         executor.call %[[S]]("a")
// CHECK-LABEL: func.func @second_function(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711")
// CHECK:         executor.call %[[S]]("b")
func.func @first_function(%a: i64) {
  catalyst.runtime_call "a"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}
func.func @second_function(%a: i64) {
  catalyst.runtime_call "b"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}

// A call nested in a loop still gets its session at the function entry.

// CHECK-LABEL: func.func @call_in_loop(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711")
// CHECK:         scf.for
// CHECK-NOT:       executor.open
// CHECK:           executor.call %[[S]]("tick")
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

// CHECK-LABEL: func.func @marshalling(
// CHECK-SAME:      %[[I64:[^:]+]]: i64, %[[F64:[^:]+]]: f64, %[[IDX:[^:]+]]: index, %[[PTR:[^:]+]]: !llvm.ptr, %[[I8:[^:]+]]: i8, %[[F16:[^:]+]]: f16, %[[I32:[^:]+]]: i32)
// CHECK:         %[[S:.+]] = executor.open("127.0.0.1:4711")
// CHECK-NEXT:    %[[V0:.+]] = arith.trunci %[[I64]] : i64 to i32
// CHECK-NEXT:    %[[T0:.+]] = tensor.from_elements %[[V0]] : tensor<1xi32>
// CHECK-NEXT:    %[[V1:.+]] = arith.truncf %[[F64]] : f64 to f32
// CHECK-NEXT:    %[[T1:.+]] = tensor.from_elements %[[V1]] : tensor<1xf32>
// CHECK-NEXT:    %[[V2:.+]] = arith.index_cast %[[IDX]] : index to i64
// CHECK-NEXT:    %[[T2:.+]] = tensor.from_elements %[[V2]] : tensor<1xi64>
// CHECK-NEXT:    %[[V3:.+]] = llvm.ptrtoint %[[PTR]] : !llvm.ptr to i64
// CHECK-NEXT:    %[[T3:.+]] = tensor.from_elements %[[V3]] : tensor<1xi64>
// "ab" then 254 NUL bytes.
// CHECK-NEXT:    %[[STR:.+]] = arith.constant dense<"0x6162{{(00){254}"}}> : tensor<256xi8>
// CHECK-NEXT:    %[[V4:.+]] = arith.extsi %[[I8]] : i8 to i64
// CHECK-NEXT:    %[[T4:.+]] = tensor.from_elements %[[V4]] : tensor<1xi64>
// CHECK-NEXT:    %[[V5:.+]] = arith.extf %[[F16]] : f16 to f64
// CHECK-NEXT:    %[[T5:.+]] = tensor.from_elements %[[V5]] : tensor<1xf64>
// Already of the declared width: no conversion.
// CHECK-NEXT:    %[[T6:.+]] = tensor.from_elements %[[I32]] : tensor<1xi32>
// CHECK-NEXT:    %[[V7:.+]] = arith.index_cast %[[IDX]] : index to i64
// CHECK-NEXT:    %[[T7:.+]] = tensor.from_elements %[[V7]] : tensor<1xi64>
// CHECK-NEXT:    executor.call %[[S]]("marshal"){{ ?}}(%[[T0]], %[[T1]], %[[T2]], %[[T3]], %[[STR]], %[[T4]], %[[T5]], %[[T6]], %[[T7]]) : !executor.session, (tensor<1xi32>, tensor<1xf32>, tensor<1xi64>, tensor<1xi64>, tensor<256xi8>, tensor<1xi64>, tensor<1xf64>, tensor<1xi32>, tensor<1xi64>) -> (){{$}}
func.func @marshalling(%i64: i64, %f64: f64, %idx: index, %ptr: !llvm.ptr, %i8: i8, %f16: f16, %i32: i32) {
  catalyst.runtime_call "marshal"(%i64, %f64, %idx, %ptr, %i8, %f16, %i32, %idx) {c_params = ["i32", "f32", "i64", "ptr", "str", "i64", "f64", "i32", "ptr"], c_strings = ["ab"], dispatch = "127.0.0.1:4711"} : (i64, f64, index, !llvm.ptr, i8, f16, i32, index) -> ()
  return
}

// Strings of up to 255 bytes fit (the last byte stays NUL); an empty string
// is all NULs. Two strings keep their order.

// CHECK-LABEL: func.func @strings(
// CHECK:         %[[EMPTY:.+]] = arith.constant dense<0> : tensor<256xi8>
// 255 x 'x' and one NUL.
// CHECK:         %[[FULL:.+]] = arith.constant dense<"0x{{(78){255}00"}}> : tensor<256xi8>
// CHECK:         executor.call %{{.+}}("log"){{ ?}}(%[[EMPTY]], %[[FULL]]) : !executor.session, (tensor<256xi8>, tensor<256xi8>) -> (){{$}}
func.func @strings() {
  catalyst.runtime_call "log"() {c_params = ["str", "str"], c_strings = ["", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"], dispatch = "127.0.0.1:4711"} : () -> ()
  return
}

// The declared result comes back first as tensor<1xT> and is extracted; the
// out buffers follow, in order, and replace the runtime_call's results.
// The out operands only give the shape: they are not sent.

// CHECK-LABEL: func.func @results(
// CHECK-SAME:      %[[N:[^:]+]]: i64, %[[H:[^:]+]]: tensor<8xf64>, %[[M:[^:]+]]: tensor<2x3xi32>)
// CHECK:         %[[S:.+]] = executor.open("127.0.0.1:4711")
// CHECK-NEXT:    %[[TN:.+]] = tensor.from_elements %[[N]] : tensor<1xi64>
// CHECK-NEXT:    %[[R:.+]]:3 = executor.call %[[S]]("sample"){{ ?}}(%[[TN]]) : !executor.session, (tensor<1xi64>) -> (tensor<1xi32>, tensor<8xf64>, tensor<2x3xi32>)
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[COUNT:.+]] = tensor.extract %[[R]]#0[%[[C0]]] : tensor<1xi32>
// CHECK-NEXT:    return %[[COUNT]], %[[R]]#1, %[[R]]#2 : i32, tensor<8xf64>, tensor<2x3xi32>
func.func @results(%n: i64, %h: tensor<8xf64>, %m: tensor<2x3xi32>) -> (i32, tensor<8xf64>, tensor<2x3xi32>) {
  %count, %hist, %mat = catalyst.runtime_call "sample"(%h, %n, %m) {c_params = ["out", "i64", "out"], dispatch = "127.0.0.1:4711"} : (tensor<8xf64>, i64, tensor<2x3xi32>) -> (i32, tensor<8xf64>, tensor<2x3xi32>)
  return %count, %hist, %mat : i32, tensor<8xf64>, tensor<2x3xi32>
}

// Only out buffers: no extract.

// CHECK-LABEL: func.func @outs_only(
// CHECK:         %[[R:.+]] = executor.call %{{.+}}("fill"){{ ?}}() : !executor.session, () -> tensor<4xf32>
// CHECK-NOT:     tensor.extract
// CHECK:         return %[[R]] : tensor<4xf32>
func.func @outs_only(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = catalyst.runtime_call "fill"(%t) {c_params = ["out"], dispatch = "127.0.0.1:4711"} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A float result.

// CHECK-LABEL: func.func @float_result(
// CHECK:         %[[R:.+]] = executor.call %{{.+}}("mean"){{ ?}}() : !executor.session, () -> tensor<1xf64>
// CHECK:         %[[V:.+]] = tensor.extract %[[R]][%{{.+}}] : tensor<1xf64>
// CHECK:         return %[[V]] : f64
func.func @float_result() -> f64 {
  %r = catalyst.runtime_call "mean"() {c_params = [], dispatch = "127.0.0.1:4711"} : () -> f64
  return %r : f64
}

// Calls without dispatch run on the host: untouched, and no session.

// CHECK-LABEL: func.func @host_call(
// CHECK-NOT:     executor.
// CHECK:         %{{.+}} = catalyst.runtime_call "host_fn"(%{{.+}}) {c_params = ["i32", "str"], c_strings = ["hi"]} : (i64) -> i32
// CHECK-NOT:     executor.
// CHECK:         return
func.func @host_call(%a: i64) -> i32 {
  %r = catalyst.runtime_call "host_fn"(%a) {c_params = ["i32", "str"], c_strings = ["hi"]} : (i64) -> i32
  return %r : i32
}

// A mix: the dispatched call is lowered, the host one stays.

// CHECK-LABEL: func.func @mixed(
// CHECK:         executor.open("127.0.0.1:4711")
// CHECK:         catalyst.runtime_call "on_host"
// CHECK:         executor.call %{{.+}}("remote")
// CHECK-NOT:     catalyst.runtime_call "remote"
func.func @mixed(%a: i64) {
  catalyst.runtime_call "on_host"(%a) {c_params = ["i64"]} : (i64) -> ()
  catalyst.runtime_call "remote"(%a) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}
