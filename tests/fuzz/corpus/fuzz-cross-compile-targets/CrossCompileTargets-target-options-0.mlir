// catalyst.target options: a target's own pipeline (anchored or not)
// replaces the default lowering; an explicit triple selects the code
// generator (the vendor does not matter for a local target; a dispatched
// target may be for another machine).
//

// math.erf has no LLVM intrinsic: the default lowering cannot translate it
// (see invalid.mlir), the targets' own pipelines call libm instead.


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
