// A float operand of the declared width but another format (bf16 for "f16")
// is converted through f32.
//
// RUN: executor-opt %s --lower-runtime-dispatch | FileCheck %s

// CHECK-LABEL: func.func @bf16_to_f16(
// CHECK-SAME:      %[[A:[^:]+]]: bf16)
// CHECK:         %[[W:.+]] = arith.extf %[[A]] : bf16 to f32
// CHECK-NEXT:    %[[V:.+]] = arith.truncf %[[W]] : f32 to f16
// CHECK:         %[[T:.+]] = tensor.from_elements %[[V]] : tensor<1xf16>
// CHECK:         executor.call %{{.+}}("half"){{ ?}}(%[[T]]) : !executor.session, (tensor<1xf16>) -> (){{$}}
func.func @bf16_to_f16(%a: bf16) {
  catalyst.runtime_call "half"(%a) {c_params = ["f16"], dispatch = "127.0.0.1:4711"} : (bf16) -> ()
  return
}
