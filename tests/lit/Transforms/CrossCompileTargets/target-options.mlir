// catalyst.target options: a target's own pipeline (anchored or not)
// replaces the default lowering; an explicit triple selects the code
// generator (the vendor does not matter for a local target; a dispatched
// target may be for another machine).
//
// RUN: rm -rf %t
// RUN: executor-opt %s --cross-compile-targets="workspace=%t" | FileCheck %s
// RUN: llvm-nm %t/special/special.o | FileCheck %s --check-prefix=SPECIAL
// RUN: llvm-nm %t/unanchored/unanchored.o | FileCheck %s --check-prefix=UNANCHORED
// RUN: llvm-readelf -h %t/explicit/explicit.o | FileCheck %s --check-prefix=X86
// RUN: llvm-nm %t/explicit/explicit.o | FileCheck %s --check-prefix=EXPLICIT
// RUN: llvm-readelf -h %t/arm/arm.o | FileCheck %s --check-prefix=ARM
// RUN: llvm-nm %t/arm/arm.o | FileCheck %s --check-prefix=ARM-NM

// math.erf has no LLVM intrinsic: the default lowering cannot translate it
// (see invalid.mlir), the targets' own pipelines call libm instead.

// CHECK-LABEL: module @prog
// CHECK-SAME:    catalyst.object_files = ["{{.*}}/special/special.o", "{{.*}}/unanchored/unanchored.o", "{{.*}}/explicit/explicit.o"]
// CHECK:         call @gauss(
// CHECK:         call @gauss2(
// CHECK:         call @twice(
// CHECK:         catalyst.launch_kernel @arm::@twice_remote(
// CHECK:       module @arm attributes {catalyst.dispatch = {address = "10.0.0.9:4711"}, catalyst.object_file = "{{.*}}/arm/arm.o", catalyst.target = {triple = "aarch64-unknown-linux-gnu"}}
// CHECK-NEXT:    func.func private @twice_remote(memref<4xf64>) -> memref<4xf64>
// CHECK-NOT:   module @special
// CHECK-NOT:   module @unanchored
// CHECK-NOT:   module @explicit

// SPECIAL-DAG: T _catalyst_pyface_gauss
// SPECIAL-DAG: U erf
// UNANCHORED-DAG: T _catalyst_pyface_gauss2
// UNANCHORED-DAG: U erf

// X86: Class: ELF64
// X86: Type: REL (Relocatable file)
// X86: Machine: Advanced Micro Devices X86-64
// EXPLICIT: T _catalyst_pyface_twice

// ARM: Class: ELF64
// ARM: Type: REL (Relocatable file)
// ARM: Machine: AArch64
// ARM-NM: T _catalyst_pyface_twice_remote

module @prog {
  func.func @main(%x: f64, %m: memref<4xf64>) -> (f64, f64, memref<4xf64>, memref<4xf64>) {
    %a = catalyst.launch_kernel @special::@gauss(%x) : (f64) -> f64
    %b = catalyst.launch_kernel @unanchored::@gauss2(%x) : (f64) -> f64
    %c = catalyst.launch_kernel @explicit::@twice(%m) : (memref<4xf64>) -> memref<4xf64>
    %d = catalyst.launch_kernel @arm::@twice_remote(%m) : (memref<4xf64>) -> memref<4xf64>
    return %a, %b, %c, %d : f64, f64, memref<4xf64>, memref<4xf64>
  }

  module @special attributes {catalyst.target = {pipeline = "builtin.module(convert-math-to-libm,convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)"}} {
    func.func @gauss(%x: f64) -> f64 {
      %y = math.erf %x : f64
      return %y : f64
    }
  }

  module @unanchored attributes {catalyst.target = {pipeline = "convert-math-to-libm,convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts"}} {
    func.func @gauss2(%x: f64) -> f64 {
      %y = math.erf %x : f64
      return %y : f64
    }
  }

  module @explicit attributes {catalyst.target = {triple = "x86_64-unknown-linux-gnu"}} {
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

  module @arm attributes {catalyst.target = {triple = "aarch64-unknown-linux-gnu"}, catalyst.dispatch = {address = "10.0.0.9:4711"}} {
    func.func @twice_remote(%x: memref<4xf64>) -> memref<4xf64> {
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
