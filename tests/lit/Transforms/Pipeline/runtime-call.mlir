// The whole default pipeline on the runtime-call sample: the dispatched
// runtime_call is lowered to executor.call, bufferized, and becomes a
// __catalyst__executor__call_wrapper round trip on the session opened at
// the start of main (shared with the launch of @compute::@normalize), its
// reply released with free_result.
//
// RUN: rm -rf %t
// RUN: executor-opt %samples/runtime-call.mlir \
// RUN:   --pass-pipeline='builtin.module(executor-default-pipeline{workspace=%t})' -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=LLVM-ONLY < %t.mlir
// RUN: FileCheck %s --check-prefix=SYMBOL < %t.mlir
// RUN: llvm-readelf -h %t/compute/compute.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-nm %t/compute/compute.o | FileCheck %s --check-prefix=NM
// No local target: no manifest.
// RUN: not ls %t/host.objects

// CHECK-LABEL: module @host {
// CHECK-DAG:   llvm.mlir.global private constant @[[ADDR:[^(]+]]("ADDR:PORT\00")
// CHECK-DAG:   llvm.mlir.global private constant @[[SYM:[^(]+]]("sample_histogram\00")
// CHECK-DAG:   llvm.mlir.global private constant @[[NORM:[^(]+]]("_catalyst_pyface_normalize\00")
// The str parameter, NUL-padded to 256 bytes ("z-basis").
// CHECK-DAG:   llvm.mlir.global private constant @{{.+}}(dense<"0x7A2D6261736973{{(00){249}"}}> : tensor<256xi8>)
// CHECK-DAG:   llvm.func @__catalyst__executor__call_wrapper(i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> i32
// CHECK-DAG:   llvm.func @__catalyst__executor__free_result(!llvm.ptr)

// CHECK-LABEL: llvm.func @main() {
// CHECK:         %[[A:.+]] = llvm.mlir.addressof @[[ADDR]] : !llvm.ptr
// CHECK:         %[[S:.+]] = llvm.call @__catalyst__executor__open(%[[A]]) : (!llvm.ptr) -> i64
// CHECK-NEXT:    llvm.call @__catalyst__executor__send_binary(%[[S]],
// CHECK-NOT:     __catalyst__executor__open
// The inputs are packed into a malloc'ed buffer...
// CHECK:         llvm.call @malloc(
// CHECK:         "llvm.intr.memcpy"
// CHECK:         llvm.call @__catalyst__executor__call_wrapper(%[[S]], %{{[^,]+}}, %[[BUF:[^,]+]], %{{.+}}, %{{.+}}, %{{.+}}) : (i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> i32
// CHECK-NEXT:    llvm.call @free(%[[BUF]])
// ...the reply's size checked against the outputs...
// CHECK:         llvm.call @__executor_check_call_reply(
// ...and the outputs copied from the reply.
// CHECK-NEXT:    %[[REPLY:.+]] = llvm.load
// CHECK-NEXT:    "llvm.intr.memcpy"(%{{.+}}, %[[REPLY]],
// CHECK:         llvm.call @__catalyst__executor__free_result(%[[REPLY]]) : (!llvm.ptr) -> ()
// CHECK:         llvm.call @__catalyst__executor__launch(%[[S]],
// CHECK:         llvm.return

// The symbol called is the runtime function's name.
// SYMBOL: llvm.mlir.global private constant @[[G:[^(]+]]("sample_histogram\00")
// SYMBOL: %[[P:.+]] = llvm.mlir.addressof @[[G]] : !llvm.ptr
// SYMBOL: llvm.call @__catalyst__executor__call_wrapper(%{{[^,]+}}, %[[P]],

// LLVM-ONLY-NOT: catalyst.runtime_call
// LLVM-ONLY-NOT: catalyst.launch_kernel
// LLVM-ONLY-NOT: func.func
// LLVM-ONLY-NOT: module @compute
// LLVM-ONLY-NOT: {{^ *(%[^ ]+ = )?"?executor\.}}
// LLVM-ONLY-NOT: {{^ *(%[^ ]+ = )?"?(arith|memref|scf|cf|func|tensor|bufferization|linalg|affine|math|index|builtin)\.}}

// ELF: Class: ELF64
// ELF: Type: REL (Relocatable file)
// ELF: Machine: Advanced Micro Devices X86-64

// NM: T _catalyst_pyface_normalize
