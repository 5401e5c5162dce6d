// save-ir-after-each writes each target's IR into {workspace}/{name}/ir/:
// 00_input.mlir (the clone as the target pipeline receives it) and then
// NN_<pass>.mlir after every pass ('pass'), after every pass that changed
// it ('changed') or after the last one ('pipeline'). With any mode, what
// Catalyst's users look for is written beside the object as well:
// extracted.mlir (the target as extracted, before its pipeline) and
// {name}.ll (the optimised LLVM IR that became {name}.o). The object is
// still written.
//
//
//
//
// Without the option nothing but the object is written.

// IR: module @compute attributes {{{.*}}catalyst.object_file = "{{.*}}/compute/compute.o"

// PASS: 00_input.mlir
// PASS-NEXT: 01_one-shot-bufferize.mlir
// PASS: {{^[0-9]+}}_func.func_convert-linalg-to-loops.mlir
// PASS: {{^[0-9]+}}_convert-scf-to-cf.mlir
// PASS: {{^[0-9]+}}_finalize-memref-to-llvm.mlir
// PASS: {{^[0-9]+}}_convert-func-to-llvm.mlir
// PASS-NEXT: {{^[0-9]+}}_reconcile-unrealized-casts.mlir
// PASS-NOT: {{.}}

// Every file is a numbered snapshot of a step the pipeline names; the nested
// func.func pipeline is one step (not one per function, and not the
// adaptor's C++ name).
// PASS-ONLY-NOT: {{^[^0-9]}}
// PASS-ONLY-NOT: {{^[0-9]+_[^.]*$}}
// PASS-ONLY-NOT: OpToOpPassAdaptor
// PASS-ONLY-NOT: ::

// OBJECT: compute.o
// OBJECT: ir

// The entry is exposed with the C interface; other functions are private.
// INPUT: module {
// INPUT-NOT: catalyst.
// INPUT-DAG: func.func @square(%{{.+}}: memref<4xf64>) -> memref<4xf64> attributes {llvm.emit_c_interface}
// INPUT-DAG: func.func private @helper(

// LAST: llvm.func @square(
// LAST: llvm.func @_mlir_ciface_square(
// LAST-NOT: func.func

// The input is already bufferized: one-shot-bufferize changes nothing.
// CHANGED: 00_input.mlir
// CHANGED-NOT: one-shot-bufferize
// CHANGED: {{^[0-9]+}}_convert-func-to-llvm.mlir
// CHANGED-NEXT: {{^[0-9]+}}_reconcile-unrealized-casts.mlir
// CHANGED-NOT: {{.}}

// PIPELINE: 00_input.mlir
// PIPELINE-NEXT: {{^[0-9]+}}_reconcile-unrealized-casts.mlir
// PIPELINE-NOT: {{.}}

// DUMPS: compute.ll
// DUMPS-NEXT: compute.o
// DUMPS-NEXT: extracted.mlir
// DUMPS-NEXT: ir

// EXTRACTED: module {
// EXTRACTED-NOT: catalyst.
// EXTRACTED-DAG: func.func @square(%{{.+}}: memref<4xf64>) -> memref<4xf64> attributes {llvm.emit_c_interface}
// EXTRACTED-DAG: func.func private @helper(
// EXTRACTED-DAG: linalg.generic

// LL: ModuleID = 'compute'
// LL: target triple =
// LL-DAG: define {{.*}}@_catalyst_pyface_square(
// LL-DAG: define {{.*}}@_mlir_ciface_square(

// NONE: compute.o
// NONE-NOT: ir
// NONE-NOT: extracted.mlir
// NONE-NOT: .ll

module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      %y = memref.alloc() : memref<4xf64>
      call @helper(%x, %y) : (memref<4xf64>, memref<4xf64>) -> ()
      return %y : memref<4xf64>
    }
    func.func @helper(%x: memref<4xf64>, %y: memref<4xf64>) {
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf64>) outs(%y : memref<4xf64>) {
      ^bb0(%in: f64, %out: f64):
        %sq = arith.mulf %in, %in : f64
        linalg.yield %sq : f64
      }
      return
    }
  }
}
