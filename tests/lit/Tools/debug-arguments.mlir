// With debug info, a kernel's arguments are DWARF formal parameters: a
// memref is a struct of its descriptor's pieces (pointers to its element
// type, then offset, sizes and strides), a scalar its MLIR type; the names
// are the .mlir ones where the parser kept them (a NameLoc: executor-compile
// -g keeps them, tests/e2e/gdb-session.test prints them in gdb), else argN.
// RUN: rm -rf %t && mkdir -p %t
// RUN: executor-opt %s --cross-compile-targets="workspace=%t debug=true opt-level=0" -o /dev/null
// RUN: llvm-dwarfdump --debug-info %t/k/k.o | FileCheck %s
// At -O2 the values where the optimiser keeps them.
// RUN: executor-opt %s --cross-compile-targets="workspace=%t/o2 debug=true" -o /dev/null
// RUN: llvm-dwarfdump --debug-info %t/o2/k/k.o | FileCheck %s --check-prefix=O2
// O2: DW_AT_name ("buf")
// O2: DW_AT_location (DW_OP_reg17 XMM0)
// O2-NEXT: {{DW_AT_name|DW_AT_abstract_origin}} ({{.*}}"arg1")
// Without debug info there are none.
// RUN: executor-opt %s --cross-compile-targets="workspace=%t/plain" -o /dev/null
// RUN: llvm-dwarfdump --debug-info %t/plain/k/k.o | FileCheck %s --check-prefix=PLAIN
// PLAIN-NOT: DW_TAG_formal_parameter

// CHECK: DW_TAG_subprogram
// CHECK: DW_AT_name ("kern")
// At -O0 each argument has a copy in the frame for its whole life.
// CHECK: DW_TAG_formal_parameter
// CHECK-NEXT: DW_AT_location (DW_OP_fbreg
// CHECK-NEXT: DW_AT_name ("buf")
// CHECK: DW_AT_decl_line (49)
// CHECK: DW_AT_type ([[MEMREF:0x[0-9a-f]+]] "memref<?x4xi32>")
// CHECK: DW_TAG_formal_parameter
// CHECK-NEXT: DW_AT_location (DW_OP_fbreg
// CHECK-NEXT: DW_AT_name ("arg1")
// CHECK: DW_AT_type ({{0x[0-9a-f]+}} "f32")
// CHECK: DW_TAG_formal_parameter
// CHECK-NEXT: DW_AT_location (DW_OP_fbreg
// CHECK-NEXT: DW_AT_name ("arg2")
// CHECK: DW_AT_type ({{0x[0-9a-f]+}} "index")
// CHECK: [[MEMREF]]: DW_TAG_structure_type
// CHECK-NEXT: DW_AT_name ("memref<?x4xi32>")
// CHECK-NEXT: DW_AT_byte_size (0x38)
// CHECK: DW_AT_name ("allocated")
// CHECK-NEXT: DW_AT_type ({{0x[0-9a-f]+}} "i32 *")
// CHECK: DW_AT_name ("aligned")
// CHECK: DW_AT_name ("offset")
// CHECK: DW_AT_name ("sizes")
// CHECK-NEXT: DW_AT_type ({{0x[0-9a-f]+}} "index[2]")
// CHECK: DW_AT_name ("strides")

module @host {
  module @k attributes {catalyst.target = {}} {
    func.func @kern(%buf: memref<?x4xi32> loc("buf"("debug-arguments.mlir":49:21)), %s: f32, %i: index) {
      %c0 = arith.constant 0 : index
      %v = arith.fptosi %s : f32 to i32
      memref.store %v, %buf[%i, %c0] : memref<?x4xi32>
      return
    }
  }
  func.func @main(%m: memref<?x4xi32>, %s: f32, %i: index) {
    catalyst.launch_kernel @k::@kern(%m, %s, %i) : (memref<?x4xi32>, f32, index) -> ()
    return
  }
}
