// The executor.call that lower-runtime-dispatch emits is bufferized by
// one-shot bufferize into its destination-passing form: the inputs become
// memrefs, the outputs (declared result first, then the out buffers) become
// allocated buffers passed after num_input_args.
//


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

func.func @inputs_only(%n: i64) {
  catalyst.runtime_call "reset"(%n) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
  return
}
