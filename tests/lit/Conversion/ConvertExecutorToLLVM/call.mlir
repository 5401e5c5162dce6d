// executor.call in destination-passing form: the inputs are packed into one
// malloc'ed buffer (memcpy each, in order), __catalyst__executor__call_wrapper
// sends it and stores the reply pointer and size in two slots, the packed
// buffer is freed, __executor_check_call_reply stops the program unless the
// status is 0 and the reply is exactly as long as the outputs, each output
// buffer is copied from its slice of the reply, in order, and the reply is
// released with __catalyst__executor__free_result.
//
// RUN: executor-opt %s --convert-executor-to-llvm | FileCheck %s

// CHECK:       llvm.mlir.global private constant @[[SYMG:[^(]+]]("sample\00")
// CHECK-LABEL: func.func @call(
// CHECK-DAG:     %[[SIZESLOT:.+]] = llvm.alloca %{{.+}} x i64 : (i64) -> !llvm.ptr
// CHECK-DAG:     %[[SLOT:.+]] = llvm.alloca %{{.+}} x !llvm.ptr : (i64) -> !llvm.ptr
// CHECK-DAG:     %[[O:.+]] = builtin.unrealized_conversion_cast %{{.+}} : memref<8xf64> to
// CHECK-DAG:     %[[R:.+]] = builtin.unrealized_conversion_cast %{{.+}} : memref<1xi32> to
// CHECK-DAG:     %[[B:.+]] = builtin.unrealized_conversion_cast %{{.+}} : memref<2x3xf32> to
// CHECK-DAG:     %[[A:.+]] = builtin.unrealized_conversion_cast %{{.+}} : memref<1xi64> to
// CHECK-DAG:     %[[S:.+]] = builtin.unrealized_conversion_cast %{{.+}} : !executor.session to i64
// Input 0: 8 bytes x size 0, from aligned pointer + offset.
// CHECK:         %[[AP:.+]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[AO:.+]] = llvm.extractvalue %[[A]][2]
// CHECK-NEXT:    %[[ADATA:.+]] = llvm.getelementptr %[[AP]][%[[AO]]] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[AE:.+]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[AD0:.+]] = llvm.extractvalue %[[A]][3, 0]
// CHECK-NEXT:    %[[ABYTES:.+]] = llvm.mul %[[AE]], %[[AD0]] : i64
// Input 1: 4 bytes x size 0 x size 1.
// CHECK:         %[[BDATA:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[BE:.+]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:    %[[BD0:.+]] = llvm.extractvalue %[[B]][3, 0]
// CHECK-NEXT:    %[[BM:.+]] = llvm.mul %[[BE]], %[[BD0]] : i64
// CHECK-NEXT:    %[[BD1:.+]] = llvm.extractvalue %[[B]][3, 1]
// CHECK-NEXT:    %[[BBYTES:.+]] = llvm.mul %[[BM]], %[[BD1]] : i64
// Outputs: the declared result, then the out buffer.
// CHECK:         %[[RDATA:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK:         %[[RBYTES:.+]] = llvm.mul %{{.+}}, %{{.+}} : i64
// CHECK:         %[[ODATA:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK:         %[[OBYTES:.+]] = llvm.mul %{{.+}}, %{{.+}} : i64
// Sizes: inputs in, outputs expected back.
// CHECK-NEXT:    %[[Z:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[T1:.+]] = llvm.add %[[Z]], %[[ABYTES]] : i64
// CHECK-NEXT:    %[[TOTAL:.+]] = llvm.add %[[T1]], %[[BBYTES]] : i64
// CHECK-NEXT:    %[[Z:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[E1:.+]] = llvm.add %[[Z]], %[[RBYTES]] : i64
// CHECK-NEXT:    %[[EXPECTED:.+]] = llvm.add %[[E1]], %[[OBYTES]] : i64
// malloc(total + 1): never malloc(0).
// CHECK-NEXT:    %[[ONE:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[N:.+]] = llvm.add %[[TOTAL]], %[[ONE]] : i64
// CHECK-NEXT:    %[[BUF:.+]] = llvm.call @malloc(%[[N]]) : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[OFF0:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[DST0:.+]] = llvm.getelementptr %[[BUF]][%[[OFF0]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    "llvm.intr.memcpy"(%[[DST0]], %[[ADATA]], %[[ABYTES]]) <{isVolatile = false}>
// CHECK-NEXT:    %[[OFF1:.+]] = llvm.add %[[OFF0]], %[[ABYTES]] : i64
// CHECK-NEXT:    %[[DST1:.+]] = llvm.getelementptr %[[BUF]][%[[OFF1]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    "llvm.intr.memcpy"(%[[DST1]], %[[BDATA]], %[[BBYTES]]) <{isVolatile = false}>
// CHECK-NEXT:    llvm.add
// CHECK-NEXT:    %[[SYM:.+]] = llvm.mlir.addressof @[[SYMG:[^ ]+]] : !llvm.ptr
// CHECK-NEXT:    %[[STATUS:.+]] = llvm.call @__catalyst__executor__call_wrapper(%[[S]], %[[SYM]], %[[BUF]], %[[TOTAL]], %[[SLOT]], %[[SIZESLOT]]) : (i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> i32
// CHECK-NEXT:    llvm.call @free(%[[BUF]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[GOT:.+]] = llvm.load %[[SIZESLOT]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[WHAT:.+]] = llvm.mlir.addressof @{{.+}} : !llvm.ptr
// CHECK-NEXT:    llvm.call @__executor_check_call_reply(%[[WHAT]], %[[STATUS]], %[[GOT]], %[[EXPECTED]]) : (!llvm.ptr, i32, i64, i64) -> ()
// CHECK-NEXT:    %[[REPLY:.+]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %[[ROFF0:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[SRC0:.+]] = llvm.getelementptr %[[REPLY]][%[[ROFF0]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    "llvm.intr.memcpy"(%[[RDATA]], %[[SRC0]], %[[RBYTES]]) <{isVolatile = false}>
// CHECK-NEXT:    %[[ROFF1:.+]] = llvm.add %[[ROFF0]], %[[RBYTES]] : i64
// CHECK-NEXT:    %[[SRC1:.+]] = llvm.getelementptr %[[REPLY]][%[[ROFF1]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    "llvm.intr.memcpy"(%[[ODATA]], %[[SRC1]], %[[OBYTES]]) <{isVolatile = false}>
// CHECK-NEXT:    llvm.add
// CHECK-NEXT:    llvm.call @__catalyst__executor__free_result(%[[REPLY]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    return
func.func @call(%s: !executor.session, %a: memref<1xi64>, %b: memref<2x3xf32>, %r: memref<1xi32>, %o: memref<8xf64>) {
  executor.call %s("sample")(%a, %b, %r, %o) {num_input_args = 2 : i32} : !executor.session, (memref<1xi64>, memref<2x3xf32>, memref<1xi32>, memref<8xf64>) -> ()
  return
}

// Without num_input_args every operand is an input: an empty reply expected.

// CHECK-LABEL: func.func @all_inputs(
// CHECK:         %[[Z:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[T:.+]] = llvm.add %[[Z]], %{{.+}} : i64
// CHECK-NEXT:    %[[EXPECTED:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK:         %[[STATUS:.+]] = llvm.call @__catalyst__executor__call_wrapper(%{{.+}}, %{{.+}}, %{{.+}}, %[[T]], %{{.+}}, %{{.+}})
// CHECK:         llvm.call @__executor_check_call_reply(%{{.+}}, %[[STATUS]], %{{.+}}, %[[EXPECTED]])
// CHECK-NOT:     "llvm.intr.memcpy"
// CHECK:         llvm.call @__catalyst__executor__free_result(
func.func @all_inputs(%s: !executor.session, %a: memref<4xf64>) {
  executor.call %s("log")(%a) : !executor.session, (memref<4xf64>) -> ()
  return
}

// Dynamic shapes: the sizes are read from the descriptors at run time.

// CHECK-LABEL: func.func @dynamic(
// CHECK:         %[[D:.+]] = llvm.extractvalue %{{.+}}[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    llvm.mul %{{.+}}, %[[D]] : i64
// CHECK:         llvm.call @__catalyst__executor__call_wrapper(
func.func @dynamic(%s: !executor.session, %a: memref<?xf64>, %o: memref<?xf64>) {
  executor.call %s("copy")(%a, %o) {num_input_args = 1 : i32} : !executor.session, (memref<?xf64>, memref<?xf64>) -> ()
  return
}

// The sample program: after bufferization, lower-runtime-dispatch's call
// lowers to the same sequence.

// CHECK-LABEL: func.func @from_runtime_call(
// CHECK:         llvm.call @malloc(
// CHECK:         "llvm.intr.memcpy"
// CHECK:         llvm.call @__catalyst__executor__call_wrapper(
// CHECK-NEXT:    llvm.call @free(
// CHECK:         llvm.call @__executor_check_call_reply(
// CHECK:         "llvm.intr.memcpy"
// CHECK:         llvm.call @__catalyst__executor__free_result(
func.func @from_runtime_call(%s: !executor.session, %n: memref<1xi64>, %str: memref<256xi8>, %r: memref<1xi32>, %h: memref<8xf64>) {
  executor.call %s("sample")(%n, %str, %r, %h) {num_input_args = 2 : i32} : !executor.session, (memref<1xi64>, memref<256xi8>, memref<1xi32>, memref<8xf64>) -> ()
  return
}
