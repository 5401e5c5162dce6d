// One-shot bufferize turns catalyst.custom_call into destination-passing
// style, as Catalyst does: tensor inputs become their buffers (a strided
// view is copied into a contiguous one), each tensor result a new buffer
// appended to the operands, and number_original_arg the number of inputs.
// backend_config and other attributes are kept.
//
// RUN: executor-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @dispatched(
// CHECK-SAME:      %[[X:[^:]+]]: memref<4xf64>) -> (memref<4xf64>, memref<2xi64>)
// CHECK:         %[[R0:.+]] = memref.alloc() {{.*}}: memref<4xf64>
// CHECK:         %[[R1:.+]] = memref.alloc() {{.*}}: memref<2xi64>
// CHECK:         catalyst.custom_call fn("eigh") (%[[X]], %[[R0]], %[[R1]]) {backend_config = {dispatch = "127.0.0.1:4711"}, keep, number_original_arg = 1 : i32} : (memref<4xf64>, memref<4xf64>, memref<2xi64>) -> (){{$}}
// CHECK:         return %[[R0]], %[[R1]]
func.func @dispatched(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<2xi64>) {
  %r:2 = catalyst.custom_call fn("eigh") (%x) {backend_config = {dispatch = "127.0.0.1:4711"}, keep} : (tensor<4xf64>) -> (tensor<4xf64>, tensor<2xi64>)
  return %r#0, %r#1 : tensor<4xf64>, tensor<2xi64>
}

// -----

// A strided slice is copied into a contiguous buffer first.
// CHECK-LABEL: func.func @strided(
// CHECK:         %[[VIEW:.+]] = memref.subview
// CHECK:         %[[COPY:.+]] = memref.alloc() {{.*}}: memref<2xf64>
// CHECK:         memref.copy %[[VIEW]], %[[COPY]]
// CHECK:         catalyst.custom_call fn("sum") (%[[COPY]], %{{.+}}) {number_original_arg = 1 : i32} : (memref<2xf64>, memref<1xf64>) -> ()
func.func @strided(%x: tensor<8xf64>) -> tensor<1xf64> {
  %s = tensor.extract_slice %x[0] [2] [4] : tensor<8xf64> to tensor<2xf64>
  %r = catalyst.custom_call fn("sum") (%s) : (tensor<2xf64>) -> tensor<1xf64>
  return %r : tensor<1xf64>
}

// -----

func.func @dynamic_result(%x: tensor<4xf64>) -> tensor<?xf64> {
  // expected-error @+2 {{failed to bufferize op}}
  // expected-error @+1 {{'catalyst.custom_call' op result of type 'tensor<?xf64>' cannot be bufferized: the callee fills an output buffer, which needs a statically shaped ranked tensor type}}
  %r = catalyst.custom_call fn("f") (%x) : (tensor<4xf64>) -> tensor<?xf64>
  return %r : tensor<?xf64>
}
