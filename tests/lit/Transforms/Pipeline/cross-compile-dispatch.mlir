// The whole default pipeline on the cross-compile-and-dispatch sample: the
// host ends up entirely in the LLVM dialect, opens the executor and ships
// the dispatched object in setup(), launches its kernels through the
// runtime, and calls the local target's entry directly; both objects are
// ELF relocatables exporting their pyface entries.
//
// RUN: rm -rf %t
// RUN: executor-opt %samples/cross-compile-dispatch.mlir \
// RUN:   --pass-pipeline='builtin.module(executor-default-pipeline{workspace=%t})' -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=LLVM-ONLY < %t.mlir
// RUN: llvm-readelf -h %t/compute/compute.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf -h %t/local/local.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-nm %t/compute/compute.o | FileCheck %s --check-prefix=COMPUTE
// RUN: llvm-nm %t/local/local.o | FileCheck %s --check-prefix=LOCAL
// RUN: cat %t/host.objects | FileCheck %s --check-prefix=MANIFEST -DWS=%t

// The local object is recorded for the linker.
// CHECK: module @host attributes {catalyst.object_files = ["{{.*}}/local/local.o"]}

// The strings: the address, the object and the two pyface entries.
// CHECK-DAG: llvm.mlir.global private constant @[[ADDR:[^(]+]]("ADDR:PORT\00")
// CHECK-DAG: llvm.mlir.global private constant @[[OBJ:[^(]+]]("{{.*}}/compute/compute.o\00")
// CHECK-DAG: llvm.mlir.global private constant @[[SQUARE:[^(]+]]("_catalyst_pyface_square\00")
// CHECK-DAG: llvm.mlir.global private constant @[[SCALE:[^(]+]]("_catalyst_pyface_scale\00")
// CHECK-DAG: llvm.func @__catalyst__executor__open(!llvm.ptr) -> i64
// CHECK-DAG: llvm.func @__catalyst__executor__send_binary(i64, !llvm.ptr, i32) -> i64
// CHECK-DAG: llvm.func @__catalyst__executor__launch(i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @sum(!llvm.ptr, !llvm.ptr, i64, i64, i64) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>

// setup() opens the session and ships the object, once.
// CHECK-LABEL: llvm.func @setup() {
// CHECK-DAG:     %[[P:.+]] = llvm.mlir.addressof @[[OBJ]] : !llvm.ptr
// CHECK-DAG:     %[[A:.+]] = llvm.mlir.addressof @[[ADDR]] : !llvm.ptr
// CHECK:         %[[S:.+]] = llvm.call @__catalyst__executor__open(%[[A]]) : (!llvm.ptr) -> i64
// CHECK-NEXT:    llvm.call @__catalyst__executor__send_binary(%[[S]], %[[P]], %{{.+}}) : (i64, !llvm.ptr, i32) -> i64
// CHECK-NEXT:    llvm.return

// main() opens its own session and ships nothing.
// CHECK-LABEL: llvm.func @main() {
// CHECK-NOT:     __catalyst__executor__send_binary
// CHECK:         %[[M:.+]] = llvm.call @__catalyst__executor__open(%{{.+}}) : (!llvm.ptr) -> i64
// CHECK-NOT:     __catalyst__executor__send_binary
// CHECK:         llvm.call @__catalyst__executor__launch(%[[M]], %{{.+}}, %{{.+}}, %{{.+}})
// CHECK:         llvm.call @__catalyst__executor__launch(%[[M]], %{{.+}}, %{{.+}}, %{{.+}})
// The local target's entry, called directly with the expanded memref
// calling convention.
// CHECK:         llvm.call @sum(%{{.+}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         llvm.call @printMemrefF64(
// CHECK:         llvm.return

// Nothing but the LLVM dialect is left (operations of any other dialect,
// the target modules, executor ops).
// LLVM-ONLY-NOT: catalyst.launch_kernel
// LLVM-ONLY-NOT: catalyst.target
// LLVM-ONLY-NOT: func.func
// LLVM-ONLY-NOT: module @compute
// LLVM-ONLY-NOT: module @local
// LLVM-ONLY-NOT: {{[^_]}}executor.
// LLVM-ONLY-NOT: !executor.
// LLVM-ONLY-NOT: {{^ *(%[^ ]+ = )?"?(arith|memref|scf|cf|func|tensor|bufferization|linalg|affine|math|index|builtin)\.}}

// ELF: Class: ELF64
// ELF: Type: REL (Relocatable file)
// ELF: Machine: Advanced Micro Devices X86-64

// COMPUTE-DAG: T _catalyst_pyface_square
// COMPUTE-DAG: T _catalyst_pyface_scale
// LOCAL-DAG: T _catalyst_pyface_sum
// LOCAL-DAG: T sum

// MANIFEST: {{^}}[[WS]]/local/local.o{{$}}
// MANIFEST-NOT: {{.}}
