// Every executor op becomes one llvm.call of its __catalyst__executor__*
// runtime function; sessions and tokens are i64; strings are private
// constant NUL-terminated globals.
//
// RUN: executor-opt %s --convert-executor-to-llvm | FileCheck %s
// RUN: executor-opt %s --convert-executor-to-llvm | FileCheck %s --check-prefix=NOOPS

// No executor op is left anywhere.
// NOOPS-NOT: {{^ *(%[^ ]+ = )?executor\.}}

// The runtime declarations, with the C ABI of Catalyst's ExecutorCAPI.h
// (size_t is i64).
// CHECK-DAG: llvm.func @__catalyst__executor__open(!llvm.ptr) -> i64{{$}}
// CHECK-DAG: llvm.func @__catalyst__executor__send_binary(i64, !llvm.ptr, i32) -> i64{{$}}
// CHECK-DAG: llvm.func @__catalyst__executor__launch(i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr){{$}}
// CHECK-DAG: llvm.func @__catalyst__executor__launch_async(i64, !llvm.ptr, !llvm.ptr) -> i64{{$}}
// CHECK-DAG: llvm.func @__catalyst__executor__await(i64){{$}}
// CHECK-DAG: llvm.func @__catalyst__executor__call_wrapper(i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> i32{{$}}
// CHECK-DAG: llvm.func @__catalyst__executor__free_result(!llvm.ptr){{$}}
// CHECK-DAG: llvm.func @__catalyst__executor__close(i64) -> i64{{$}}
// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr{{$}}
// CHECK-DAG: llvm.func @free(!llvm.ptr){{$}}
// The strings.
// CHECK-DAG: llvm.mlir.global private constant @[[ADDR:[^(]+]]("127.0.0.1:4711\00")
// CHECK-DAG: llvm.mlir.global private constant @[[OBJ:[^(]+]]("/ws/compute/compute.o\00")
// CHECK-DAG: llvm.mlir.global private constant @[[WARMUP:[^(]+]]("_catalyst_pyface_warmup\00")
// CHECK-DAG: llvm.mlir.global private constant @[[PAIR:[^(]+]]("_catalyst_pyface_pair\00")
// CHECK-DAG: llvm.mlir.global private constant @[[SYM:[^(]+]]("reset\00")
// A launch and an await store their .mlir place in the program's weak
// __executor_studio_call_site first, for the runtime's error message.
// CHECK-DAG: llvm.mlir.global weak @__executor_studio_call_site() {addr_space = 0 : i32} : !llvm.ptr
// CHECK-DAG: llvm.mlir.global private constant @[[AWAIT_AT:[^(]+]]("{{[^ ]*}}ops.mlir:[[#@LINE+21]]:3\00")

// CHECK-LABEL: func.func @session_ops()
// CHECK-NEXT:    %[[A:.+]] = llvm.mlir.addressof @[[ADDR]] : !llvm.ptr
// CHECK-NEXT:    %[[S:.+]] = llvm.call @__catalyst__executor__open(%[[A]]) : (!llvm.ptr) -> i64
// CHECK-NEXT:    %[[P:.+]] = llvm.mlir.addressof @[[OBJ]] : !llvm.ptr
// CHECK-NEXT:    %[[F:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call @__catalyst__executor__send_binary(%[[S]], %[[P]], %[[F]]) : (i64, !llvm.ptr, i32) -> i64
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.addressof @[[WARMUP]] : !llvm.ptr
// CHECK-NEXT:    %[[O:.+]] = llvm.mlir.addressof @[[OBJ]] : !llvm.ptr
// CHECK-NEXT:    %[[T:.+]] = llvm.call @__catalyst__executor__launch_async(%[[S]], %[[E]], %[[O]]) : (i64, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-NEXT:    %[[AT:.+]] = llvm.mlir.addressof @[[AWAIT_AT]] : !llvm.ptr
// CHECK-NEXT:    %[[SITE:.+]] = llvm.mlir.addressof @__executor_studio_call_site : !llvm.ptr
// CHECK-NEXT:    llvm.store %[[AT]], %[[SITE]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.call @__catalyst__executor__await(%[[T]]) : (i64) -> ()
// CHECK-NEXT:    llvm.call @__catalyst__executor__close(%[[S]]) : (i64) -> i64
// CHECK-NEXT:    return
func.func @session_ops() {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  executor.send_binary %s("/ws/compute/compute.o") : !executor.session
  %t = executor.launch_async %s("warmup", "/ws/compute/compute.o") : !executor.session -> !executor.token
  executor.await %t : !executor.token
  executor.close %s : !executor.session
  return
}

// A launch passes arrays of pointers to the memref descriptors, their ranks
// and element sizes, for the inputs and the outputs; the output descriptors
// are read back after the call.

// CHECK-LABEL: func.func @launch(
// CHECK-SAME:      %[[X:[^:]+]]: memref<4xf64>, %[[Y:[^:]+]]: memref<2x3xi32>)
// CHECK-DAG:     %[[OUT1:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-DAG:     %[[OUT0:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(ptr, ptr, i64)>
// CHECK-DAG:     %[[IN1:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-DAG:     %[[IN0:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-DAG:     %[[DY:.+]] = builtin.unrealized_conversion_cast %[[Y]] : memref<2x3xi32> to !llvm.struct
// CHECK-DAG:     %[[DX:.+]] = builtin.unrealized_conversion_cast %[[X]] : memref<4xf64> to !llvm.struct
// CHECK:         %[[S:.+]] = llvm.call @__catalyst__executor__open(
// Input 0: memref<4xf64>, rank 1, 8-byte elements.
// CHECK:         llvm.store %[[DX]], %[[IN0]]
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INS:.+]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %[[IN0]], %[[G]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INRANKS:.+]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %[[R]], %[[G]] : i64, !llvm.ptr
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INSIZES:.+]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %[[E]], %[[G]] : i64, !llvm.ptr
// Input 1: memref<2x3xi32>, rank 2, 4-byte elements.
// CHECK-NEXT:    llvm.store %[[DY]], %[[IN1]]
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INS]][1]
// CHECK-NEXT:    llvm.store %[[IN1]], %[[G]]
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INRANKS]][1]
// CHECK-NEXT:    llvm.store %[[R]], %[[G]]
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INSIZES]][1]
// CHECK-NEXT:    llvm.store %[[E]], %[[G]]
// Output 0: memref<f32>, rank 0, 4-byte elements; not stored, filled.
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTS:.+]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %[[OUT0]], %[[G]]
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTRANKS:.+]][0]
// CHECK-NEXT:    llvm.store %[[R]], %[[G]]
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTSIZES:.+]][0]
// CHECK-NEXT:    llvm.store %[[E]], %[[G]]
// Output 1: memref<5xindex>, rank 1, 8-byte elements.
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTS]][1]
// CHECK-NEXT:    llvm.store %[[OUT1]], %[[G]]
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTRANKS]][1]
// CHECK-NEXT:    llvm.store %[[R]], %[[G]]
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTSIZES]][1]
// CHECK-NEXT:    llvm.store %[[E]], %[[G]]
// CHECK-NEXT:    %[[ENTRY:.+]] = llvm.mlir.addressof @[[PAIR]] : !llvm.ptr
// CHECK-NEXT:    %[[OBJP:.+]] = llvm.mlir.addressof @[[OBJ]] : !llvm.ptr
// CHECK-NEXT:    %[[AT:.+]] = llvm.mlir.addressof @{{.+}} : !llvm.ptr
// CHECK-NEXT:    %[[SITE:.+]] = llvm.mlir.addressof @__executor_studio_call_site : !llvm.ptr
// CHECK-NEXT:    llvm.store %[[AT]], %[[SITE]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[NIN:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    %[[NOUT:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    llvm.call @__catalyst__executor__launch(%[[S]], %[[ENTRY]], %[[OBJP]], %[[NIN]], %[[INS]], %[[INRANKS]], %[[INSIZES]], %[[NOUT]], %[[OUTS]], %[[OUTRANKS]], %[[OUTSIZES]]) : (i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    %[[V0:.+]] = llvm.load %[[OUT0]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64)>
// CHECK-NEXT:    %[[M0:.+]] = builtin.unrealized_conversion_cast %[[V0]] : !llvm.struct<(ptr, ptr, i64)> to memref<f32>
// CHECK-NEXT:    %[[V1:.+]] = llvm.load %[[OUT1]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    %[[M1:.+]] = builtin.unrealized_conversion_cast %[[V1]] : {{.+}} to memref<5xindex>
// CHECK-NEXT:    return %[[M0]], %[[M1]] : memref<f32>, memref<5xindex>
func.func @launch(%a: memref<4xf64>, %b: memref<2x3xi32>) -> (memref<f32>, memref<5xindex>) {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  %r:2 = executor.launch %s("pair", "/ws/compute/compute.o")(%a, %b) : !executor.session, (memref<4xf64>, memref<2x3xi32>) -> (memref<f32>, memref<5xindex>)
  return %r#0, %r#1 : memref<f32>, memref<5xindex>
}

// A launch without inputs or outputs still passes (one-element) arrays and
// zero counts.

// CHECK-LABEL: func.func @launch_nothing(
// CHECK:         %[[Z0:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[Z1:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    llvm.call @__catalyst__executor__launch(%{{.+}}, %{{.+}}, %{{.+}}, %[[Z0]], %{{.+}}, %{{.+}}, %{{.+}}, %[[Z1]], %{{.+}}, %{{.+}}, %{{.+}})
func.func @launch_nothing(%s: !executor.session) {
  executor.launch %s("warmup", "/ws/compute/compute.o")() : !executor.session, () -> ()
  return
}

// A call with nothing to send or receive: an empty packed buffer.

// CHECK-LABEL: func.func @call_nothing(
// CHECK:         %[[SYMP:.+]] = llvm.mlir.addressof @[[SYM]] : !llvm.ptr
// CHECK-NEXT:    llvm.call @__catalyst__executor__call_wrapper(%{{.+}}, %[[SYMP]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : (i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> i32
// CHECK:         llvm.call @__catalyst__executor__free_result(
func.func @call_nothing(%s: !executor.session) {
  executor.call %s("reset")() {num_input_args = 0 : i32} : !executor.session, () -> ()
  return
}
