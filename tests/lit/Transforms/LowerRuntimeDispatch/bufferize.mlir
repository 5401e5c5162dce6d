// The executor.call that lower-runtime-dispatch emits is bufferized by
// one-shot bufferize into its destination-passing form: the inputs become
// memrefs, the outputs (declared result first, then the out buffers) become
// allocated buffers passed after num_input_args.
//
// RUN: executor-opt %s --lower-runtime-dispatch --one-shot-bufferize | FileCheck %s
// RUN: executor-opt %s --lower-runtime-dispatch \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s --check-prefix=FB

// CHECK-LABEL: func.func @sample(
// CHECK-SAME:      %[[N:[^:]+]]: i64
// CHECK:         %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK:         %[[IN:.+]] = memref.alloc() {{.*}}: memref<1xi64>
// CHECK:         memref.store %[[N]], %[[IN]][%{{.+}}] : memref<1xi64>
// CHECK:         %[[STR:.+]] = memref.get_global @{{.+}} : memref<256xi8>
// CHECK:         %[[RES:.+]] = memref.alloc() {{.*}}: memref<1xi32>
// CHECK:         %[[OUT:.+]] = memref.alloc() {{.*}}: memref<8xf64>
// CHECK:         executor.call %[[S]]("sample"){{ ?}}(%[[IN]], %[[STR]], %[[RES]], %[[OUT]]) {num_input_args = 2 : i32} : !executor.session, (memref<1xi64>, memref<256xi8>, memref<1xi32>, memref<8xf64>) -> (){{$}}
// CHECK-NOT:     executor.call
// CHECK:         %[[COUNT:.+]] = memref.load %[[RES]][%{{.+}}] : memref<1xi32>
// CHECK:         return %[[COUNT]]

// FB-LABEL: func.func @sample(
// FB-SAME:      -> (i32, memref<8xf64>)
// FB:         executor.call %{{.+}}("sample"){{ ?}}(%{{.+}}, %{{.+}}, %[[RES:.+]], %[[OUT:.+]]) {num_input_args = 2 : i32} : !executor.session, (memref<1xi64>, memref<256xi8>, memref<1xi32>, memref<8xf64>) -> (){{$}}
// FB:         %[[COUNT:.+]] = memref.load %[[RES]]
// FB:         return %[[COUNT]], %[[OUT]] : i32, memref<8xf64>
// FB-NOT:     tensor<
func.func @sample(%n: i64, %h: tensor<8xf64>) -> (i32, tensor<8xf64>) {
  %count, %filled = catalyst.runtime_call "sample"(%n, %h) {c_params = ["i64", "str", "out"], c_strings = ["z"], dispatch = "127.0.0.1:4711"} : (i64, tensor<8xf64>) -> (i32, tensor<8xf64>)
  return %count, %filled : i32, tensor<8xf64>
}

// No outputs at all: num_input_args covers every operand.

// CHECK-LABEL: func.func @inputs_only(
// CHECK:         executor.call %{{.+}}("reset"){{ ?}}(%[[IN:.+]]) {num_input_args = 1 : i32} : !executor.session, (memref<1xi64>) -> (){{$}}
func.func @inputs_only(%n: i64) {
  catalyst.runtime_call "reset"(%n) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}
