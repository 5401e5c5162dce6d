// Issue 39: independent targets compile on several threads, each in a
// context of its own; the host's IR, the manifest, every object and the
// saved IR are byte-identical with one thread (--mlir-disable-threading or
// jobs=1) and with several, and with the cache of compiled targets off.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: executor-opt %s --cross-compile-targets="workspace=%t/ws jobs=4" -o %t/ws.mlir
// RUN: mv %t/ws %t/threads && mv %t/ws.mlir %t/threads.mlir
// RUN: executor-opt %s --cross-compile-targets="workspace=%t/ws" --mlir-disable-threading -o %t/ws.mlir
// RUN: mv %t/ws %t/one && mv %t/ws.mlir %t/one.mlir
// RUN: executor-opt %s --cross-compile-targets="workspace=%t/ws jobs=1 cache=false" -o %t/ws.mlir
// RUN: mv %t/ws %t/uncached && mv %t/ws.mlir %t/uncached.mlir
// RUN: cmp %t/threads.mlir %t/one.mlir
// RUN: cmp %t/threads.mlir %t/uncached.mlir
// RUN: cmp %t/threads/host.objects %t/one/host.objects
// RUN: for t in a b c d e f; do cmp %t/threads/$t/$t.o %t/one/$t/$t.o && cmp %t/threads/$t/$t.o %t/uncached/$t/$t.o || exit 1; done
// RUN: FileCheck %s < %t/threads.mlir
//
// The driver: -j4 and -j1 give the same IR and the same kernel objects.
// RUN: executor-compile -j4 %s --emit=mlir -o %t/j.mlir --workspace %t/drv
// RUN: mv %t/drv %t/drv4 && mv %t/j.mlir %t/j4.mlir
// RUN: executor-compile -j1 %s --emit=mlir -o %t/j.mlir --workspace %t/drv
// RUN: cmp %t/j4.mlir %t/j.mlir
// RUN: for t in a b c d e f; do cmp %t/drv4/$t/$t.o %t/drv/$t/$t.o || exit 1; done
//
// Saved IR (save-ir-after-each, never cached) is the same too.
// RUN: executor-opt %s --cross-compile-targets="workspace=%t/save save-ir-after-each=pass jobs=3" -o /dev/null
// RUN: mv %t/save %t/save3
// RUN: executor-opt %s --cross-compile-targets="workspace=%t/save save-ir-after-each=pass" --mlir-disable-threading -o /dev/null
// RUN: diff -r %t/save3 %t/save
//
// Local targets are linked in the targets' order, dispatched ones keep
// declarations.
// CHECK: module @host attributes {catalyst.object_files = ["{{.*}}/a/a.o", "{{.*}}/c/c.o", "{{.*}}/e/e.o", "{{.*}}/f/f.o"]}
// CHECK-DAG: module @b attributes {{{.*}}catalyst.object_file = "{{.*}}/b/b.o"
// CHECK-DAG: module @d attributes {{{.*}}catalyst.object_file = "{{.*}}/d/d.o"

module @host {
  func.func @main(%x: memref<8xf64>) {
    %a = catalyst.launch_kernel @a::@ka(%x) : (memref<8xf64>) -> memref<8xf64>
    %b = catalyst.launch_kernel @b::@kb(%a) : (memref<8xf64>) -> memref<8xf64>
    %c = catalyst.launch_kernel @c::@kc(%b) : (memref<8xf64>) -> memref<8xf64>
    %d = catalyst.launch_kernel @d::@kd(%c) : (memref<8xf64>) -> memref<8xf64>
    %e = catalyst.launch_kernel @e::@ke(%d) : (memref<8xf64>) -> memref<8xf64>
    %f = catalyst.launch_kernel @f::@kf(%e) : (memref<8xf64>) -> memref<8xf64>
    return
  }
  module @a attributes {catalyst.target = {}} {
    func.func @ka(%x: memref<8xf64>) -> memref<8xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %s = arith.constant 2.0 : f64
      %y = memref.alloc() : memref<8xf64>
      scf.for %i = %c0 to %c8 step %c1 {
        %v = memref.load %x[%i] : memref<8xf64>
        %w = arith.mulf %v, %s : f64
        memref.store %w, %y[%i] : memref<8xf64>
      }
      return %y : memref<8xf64>
    }
  }
  module @b attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @kb(%x: memref<8xf64>) -> memref<8xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %s = arith.constant 3.0 : f64
      %y = memref.alloc() : memref<8xf64>
      scf.for %i = %c0 to %c8 step %c1 {
        %v = memref.load %x[%i] : memref<8xf64>
        %w = arith.addf %v, %s : f64
        memref.store %w, %y[%i] : memref<8xf64>
      }
      return %y : memref<8xf64>
    }
  }
  module @c attributes {catalyst.target = {debug = true}} {
    func.func @kc(%x: memref<8xf64>) -> memref<8xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %y = memref.alloc() : memref<8xf64>
      scf.for %i = %c0 to %c8 step %c1 {
        %v = memref.load %x[%i] : memref<8xf64>
        %w = arith.mulf %v, %v : f64
        memref.store %w, %y[%i] : memref<8xf64>
      }
      return %y : memref<8xf64>
    }
  }
  module @d attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @kd(%x: memref<8xf64>) -> memref<8xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %y = memref.alloc() : memref<8xf64>
      scf.for %i = %c0 to %c8 step %c1 {
        %v = memref.load %x[%i] : memref<8xf64>
        %w = arith.negf %v : f64
        memref.store %w, %y[%i] : memref<8xf64>
      }
      return %y : memref<8xf64>
    }
  }
  module @e attributes {catalyst.target = {}} {
    func.func @ke(%x: memref<8xf64>) -> memref<8xf64> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %y = memref.alloc() : memref<8xf64>
      scf.for %i = %c0 to %c8 step %c1 {
        %v = memref.load %x[%i] : memref<8xf64>
        %w = math.sqrt %v : f64
        memref.store %w, %y[%i] : memref<8xf64>
      }
      return %y : memref<8xf64>
    }
  }
  module @f attributes {catalyst.target = {}} {
    func.func @kf(%x: memref<8xf64>) -> memref<8xf64> {
      %y = memref.alloc() : memref<8xf64>
      memref.copy %x, %y : memref<8xf64> to memref<8xf64>
      return %y : memref<8xf64>
    }
  }
}
