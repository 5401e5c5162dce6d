// --save-ir-after-each writes each target's own lowering beside the host's:
// {workspace}/ir/TARGET/00_extracted.mlir, NN_<pass>.mlir after each step of
// the target's pipeline, NN_llvm.ll and NN_llvm-opt.ll (before and after
// LLVM's optimisation) and NN_asm.s, the assembly for the target's triple
// (AArch64 here). Numbers count within the target; the host's count its
// passes from 01, as the studio and the language server number them.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: executor-compile %s --emit=mlir -o %t/out.mlir --workspace=%t/ws --save-ir-after-each=pass
// RUN: ls %t/ws/ir | FileCheck %s --check-prefix=HOST
// HOST: 00_input.mlir
// HOST: 03_cross-compile-targets.mlir
// HOST: 04_dispatch-executor-targets.mlir
// HOST: arm
// RUN: ls %t/ws/ir/arm | FileCheck %s --check-prefix=ARM
// ARM: 00_extracted.mlir
// ARM: {{[0-9][0-9]}}_convert-func-to-llvm.mlir
// ARM: {{[0-9][0-9]}}_llvm.ll
// ARM: {{[0-9][0-9]}}_llvm-opt.ll
// ARM: {{[0-9][0-9]}}_asm.s
// RUN: FileCheck %s --check-prefix=EXTRACTED < %t/ws/ir/arm/00_extracted.mlir
// EXTRACTED: func.func @twice
// EXTRACTED: scf.for
// RUN: cat %t/ws/ir/arm/*_llvm.ll | FileCheck %s --check-prefix=LL
// LL: target triple = "aarch64-unknown-linux-gnu"
// LL: define {{.*}}@twice(
// RUN: cat %t/ws/ir/arm/*_asm.s | FileCheck %s --check-prefix=ASM
// ASM: twice:
// ASM: fadd v{{[0-9]+}}.2d
// ASM: ret
//
// 'changed' leaves out the target steps that changed nothing; 'pipeline'
// keeps the extracted module and the assembly.
// RUN: executor-compile %s --emit=mlir -o %t/out2.mlir --workspace=%t/ws2 --save-ir-after-each=pipeline
// RUN: ls %t/ws2/ir/arm | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: 00_extracted.mlir
// PIPELINE-NEXT: {{[0-9][0-9]}}_asm.s
// PIPELINE-NOT: .ll

module @prog {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %y = catalyst.launch_kernel @arm::@twice(%x) : (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @arm attributes {catalyst.target = {triple = "aarch64-unknown-linux-gnu"}, catalyst.dispatch = {address = "10.0.0.9:4711"}} {
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
