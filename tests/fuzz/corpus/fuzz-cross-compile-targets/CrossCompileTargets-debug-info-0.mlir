// debug=true (or catalyst.target = {debug = true} on one target) compiles
// targets with DWARF whose file, lines and columns are this .mlir file's:
// the subprograms are the target's functions, the line table holds the
// lines of its ops, through the whole lowering; at -O2 as at opt-level=0.
// Without it the objects carry no debug info.
//
//
//
// Only the tagged target has debug info without the option.
//

// The file is the absolute path of this .mlir file.
// LL-DAG: !DICompileUnit(language: DW_LANG_C, file: ![[FILE:[0-9]+]], producer: "MLIR"
// LL-DAG: ![[FILE]] = !DIFile(filename: "debug-info.mlir", directory: "/{{.*}}CrossCompileTargets")
// LL-DAG: !DISubprogram(name: "square", linkageName: "square"

// LINES: name: "debug-info.mlir"
// INFO: DW_TAG_compile_unit
// INFO: DW_AT_name ("debug-info.mlir")
// INFO: DW_AT_comp_dir ("/{{.*}}CrossCompileTargets")
// INFO: DW_AT_name ("square")
// TAGGED: name: "debug-info.mlir"

// NONE-NOT: .debug_line

// LEVEL: error: cross-compile-targets opt-level=4 is not an optimisation level; give 0, 1, 2 or 3

module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> memref<4xf64>
    %z = catalyst.launch_kernel @tagged::@twice(%y) : (memref<4xf64>) -> memref<4xf64>
    return %z : memref<4xf64>
  }

  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:1"}} {
    // INFO-NEXT: DW_AT_decl_file ("/{{.*}}debug-info.mlir")
    // INFO-NEXT: DW_AT_decl_line ([[# @LINE + 1]])
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : memref<4xf64>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf64>
        // The multiplication's line and column, in the IR and the object:
        // LL-DAG: !DILocation(line: [[# @LINE + 2]], column: 14
        // LINES: {{^}}0x{{[0-9a-f]+}} [[# @LINE + 1]] 14 1 
        %s = arith.mulf %v, %v : f64
        memref.store %s, %y[%i] : memref<4xf64>
      }
      return %y : memref<4xf64>
    }
  }

  module @tagged attributes {catalyst.target = {debug = true}, catalyst.dispatch = {address = "127.0.0.1:1"}} {
    func.func @twice(%x: memref<4xf64>) -> memref<4xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : memref<4xf64>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf64>
        %s = arith.addf %v, %v : f64
        memref.store %s, %y[%i] : memref<4xf64>
      }
      return %y : memref<4xf64>
    }
  }
}
