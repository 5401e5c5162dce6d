// Issue 40: a launch's scalar inputs and results. Each has a slot of its
// own type at the function's entry: an input's value is stored there, a
// result's is loaded from there after the call. Its entry in the pointer
// array points at the slot, its rank is EXECUTOR_SCALAR_RANK ((size_t)-1,
// ExecutorRuntime/CAPI.h) and its element size is its byte size (i1: 1,
// index: 8).
//
// RUN: executor-opt %s --convert-executor-to-llvm | FileCheck %s

// CHECK-LABEL: func.func @launch_scalars(
// CHECK-SAME:      %{{[^:]+}}: !executor.session, %[[A:[^:]+]]: f64, %[[N:[^:]+]]: i32, %[[X:[^:]+]]: memref<8xf64>, %[[B:[^:]+]]: i1)
// The result slots, then the input slots (the arrays between them).
// CHECK:         %[[OUTB:.+]] = llvm.alloca %{{.+}} x i1 : (i64) -> !llvm.ptr
// CHECK:         %[[OUTF:.+]] = llvm.alloca %{{.+}} x f64 : (i64) -> !llvm.ptr
// CHECK:         %[[OUTM:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         %[[INB:.+]] = llvm.alloca %{{.+}} x i1 : (i64) -> !llvm.ptr
// CHECK:         %[[INM:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         %[[INN:.+]] = llvm.alloca %{{.+}} x i32 : (i64) -> !llvm.ptr
// CHECK:         %[[INF:.+]] = llvm.alloca %{{.+}} x f64 : (i64) -> !llvm.ptr
// CHECK:         %[[INSIZES:.+]] = llvm.alloca %{{.+}} x !llvm.array<4 x i64>
// CHECK:         %[[INRANKS:.+]] = llvm.alloca %{{.+}} x !llvm.array<4 x i64>
// CHECK:         %[[INS:.+]] = llvm.alloca %{{.+}} x !llvm.array<4 x ptr>
// Input 0: f64, by pointer to its value; a scalar's rank, 8 bytes.
// CHECK:         llvm.store %[[A]], %[[INF]] : f64, !llvm.ptr
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %[[INF]], %[[G]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INRANKS]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %[[R]], %[[G]] : i64, !llvm.ptr
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INSIZES]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %[[E]], %[[G]] : i64, !llvm.ptr
// Input 1: i32, 4 bytes.
// CHECK-NEXT:    llvm.store %[[N]], %[[INN]] : i32, !llvm.ptr
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INS]][1]
// CHECK-NEXT:    llvm.store %[[INN]], %[[G]]
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INRANKS]][1]
// CHECK-NEXT:    llvm.store %[[R]], %[[G]]
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INSIZES]][1]
// CHECK-NEXT:    llvm.store %[[E]], %[[G]]
// Input 2: the memref, as before: its descriptor, rank 1.
// CHECK-NEXT:    llvm.store %{{.+}}, %[[INM]] : !llvm.struct
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INS]][2]
// CHECK-NEXT:    llvm.store %[[INM]], %[[G]]
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INRANKS]][2]
// CHECK-NEXT:    llvm.store %[[R]], %[[G]]
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INSIZES]][2]
// CHECK-NEXT:    llvm.store %[[E]], %[[G]]
// Input 3: i1, one byte.
// CHECK-NEXT:    llvm.store %[[B]], %[[INB]] : i1, !llvm.ptr
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INS]][3]
// CHECK-NEXT:    llvm.store %[[INB]], %[[G]]
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INRANKS]][3]
// CHECK-NEXT:    llvm.store %[[R]], %[[G]]
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[INSIZES]][3]
// CHECK-NEXT:    llvm.store %[[E]], %[[G]]
// Output 0: the memref; outputs 1 and 2: f64 and i1 slots, not stored.
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTS:.+]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %[[OUTM]], %[[G]]
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTRANKS:.+]][0]
// CHECK-NEXT:    llvm.store %[[R]], %[[G]]
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTSIZES:.+]][0]
// CHECK-NEXT:    llvm.store %[[E]], %[[G]]
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTS]][1]
// CHECK-NEXT:    llvm.store %[[OUTF]], %[[G]]
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTRANKS]][1]
// CHECK-NEXT:    llvm.store %[[R]], %[[G]]
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTSIZES]][1]
// CHECK-NEXT:    llvm.store %[[E]], %[[G]]
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTS]][2]
// CHECK-NEXT:    llvm.store %[[OUTB]], %[[G]]
// CHECK-NEXT:    %[[R:.+]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTRANKS]][2]
// CHECK-NEXT:    llvm.store %[[R]], %[[G]]
// CHECK-NEXT:    %[[E:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[G:.+]] = llvm.getelementptr %[[OUTSIZES]][2]
// CHECK-NEXT:    llvm.store %[[E]], %[[G]]
// CHECK:         %[[NIN:.+]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:    %[[NOUT:.+]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-NEXT:    llvm.call @__catalyst__executor__launch(%{{.+}}, %{{.+}}, %{{.+}}, %[[NIN]], %[[INS]], %[[INRANKS]], %[[INSIZES]], %[[NOUT]], %[[OUTS]], %[[OUTRANKS]], %[[OUTSIZES]])
// The results: the descriptor, then the values the runtime stored.
// CHECK-NEXT:    %[[VM:.+]] = llvm.load %[[OUTM]] : !llvm.ptr -> !llvm.struct
// CHECK-NEXT:    %[[M:.+]] = builtin.unrealized_conversion_cast %[[VM]] : {{.+}} to memref<8xf64>
// CHECK-NEXT:    %[[F:.+]] = llvm.load %[[OUTF]] : !llvm.ptr -> f64
// CHECK-NEXT:    %[[T:.+]] = llvm.load %[[OUTB]] : !llvm.ptr -> i1
// CHECK-NEXT:    return %[[M]], %[[F]], %[[T]] : memref<8xf64>, f64, i1
func.func @launch_scalars(%s: !executor.session, %a: f64, %n: i32, %x: memref<8xf64>, %b: i1) -> (memref<8xf64>, f64, i1) {
  %r:3 = executor.launch %s("axpy", "/ws/compute/compute.o")(%a, %n, %x, %b) : !executor.session, (f64, i32, memref<8xf64>, i1) -> (memref<8xf64>, f64, i1)
  return %r#0, %r#1, %r#2 : memref<8xf64>, f64, i1
}

// Every scalar type: its slot's type and its byte size (ten inputs, then
// five results).
// CHECK-LABEL: func.func @launch_every_scalar(
// CHECK-SAME:      %{{[^:]+}}: !executor.session, %[[B:[^:]+]]: i1, %[[C:[^:]+]]: i8, %[[D:[^:]+]]: i16, %[[E:[^:]+]]: i32, %[[F:[^:]+]]: i64, %[[G:[^:]+]]: index, %[[H:[^:]+]]: f16, %[[K:[^:]+]]: bf16, %[[L:[^:]+]]: f32, %[[M:[^:]+]]: f64)
// CHECK:         llvm.store %[[B]], %{{.+}} : i1, !llvm.ptr
// CHECK:         llvm.mlir.constant(1 : i64)
// CHECK:         llvm.store %[[C]], %{{.+}} : i8, !llvm.ptr
// CHECK:         llvm.mlir.constant(1 : i64)
// CHECK:         llvm.store %[[D]], %{{.+}} : i16, !llvm.ptr
// CHECK:         llvm.mlir.constant(2 : i64)
// CHECK:         llvm.store %[[E]], %{{.+}} : i32, !llvm.ptr
// CHECK:         llvm.mlir.constant(4 : i64)
// CHECK:         llvm.store %[[F]], %{{.+}} : i64, !llvm.ptr
// CHECK:         llvm.mlir.constant(8 : i64)
// CHECK:         llvm.store %{{.+}}, %{{.+}} : i64, !llvm.ptr
// CHECK:         llvm.mlir.constant(8 : i64)
// CHECK:         llvm.store %[[H]], %{{.+}} : f16, !llvm.ptr
// CHECK:         llvm.mlir.constant(2 : i64)
// CHECK:         llvm.store %[[K]], %{{.+}} : bf16, !llvm.ptr
// CHECK:         llvm.mlir.constant(2 : i64)
// CHECK:         llvm.store %[[L]], %{{.+}} : f32, !llvm.ptr
// CHECK:         llvm.mlir.constant(4 : i64)
// CHECK:         llvm.store %[[M]], %{{.+}} : f64, !llvm.ptr
// CHECK:         llvm.mlir.constant(8 : i64)
// CHECK:         llvm.call @__catalyst__executor__launch(
// CHECK-NEXT:    llvm.load %{{.+}} : !llvm.ptr -> i8
// CHECK-NEXT:    llvm.load %{{.+}} : !llvm.ptr -> i16
// CHECK-NEXT:    %[[I:.+]] = llvm.load %{{.+}} : !llvm.ptr -> i64
// CHECK-NEXT:    builtin.unrealized_conversion_cast %[[I]] : i64 to index
// CHECK-NEXT:    llvm.load %{{.+}} : !llvm.ptr -> bf16
// CHECK-NEXT:    llvm.load %{{.+}} : !llvm.ptr -> f32
func.func @launch_every_scalar(%s: !executor.session, %b: i1, %c: i8, %d: i16, %e: i32, %f: i64, %g: index, %h: f16, %k: bf16, %l: f32, %m: f64) -> (i8, i16, index, bf16, f32) {
  %r:5 = executor.launch %s("every", "/ws/compute/compute.o")(%b, %c, %d, %e, %f, %g, %h, %k, %l, %m) : !executor.session, (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) -> (i8, i16, index, bf16, f32)
  return %r#0, %r#1, %r#2, %r#3, %r#4 : i8, i16, index, bf16, f32
}
