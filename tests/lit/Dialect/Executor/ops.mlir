// Round trip of every executor op in its custom form: print, re-parse and
// print again, and the same through the generic form.
//
// RUN: executor-opt %s | FileCheck %s
// RUN: executor-opt %s | executor-opt | FileCheck %s
// RUN: executor-opt %s -mlir-print-op-generic | executor-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// executor.open / executor.close
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @open_close
func.func @open_close() {
  // CHECK: %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
  %s = executor.open("127.0.0.1:4711") : !executor.session
  // CHECK: executor.close %[[S]] : !executor.session
  executor.close %s : !executor.session
  return
}

// CHECK-LABEL: func.func @open_addresses
func.func @open_addresses() {
  // CHECK: %[[V6:.+]] = executor.open("[::1]:4711") : !executor.session
  %v6 = executor.open("[::1]:4711") : !executor.session
  // CHECK: %[[PH:.+]] = executor.open("ADDR:PORT") : !executor.session
  %ph = executor.open("ADDR:PORT") : !executor.session
  // CHECK: %[[HN:.+]] = executor.open("localhost:0") : !executor.session
  %hn = executor.open("localhost:0") : !executor.session
  // CHECK: %[[MX:.+]] = executor.open("node-7.cluster:65535") : !executor.session
  %mx = executor.open("node-7.cluster:65535") : !executor.session
  // The runtime's Unix sockets, in the same grammar (ExecutorStudio/Support/Address.h).
  // CHECK: %[[UX:.+]] = executor.open("unix:/run/user/1000/executor.sock") : !executor.session
  %ux = executor.open("unix:/run/user/1000/executor.sock") : !executor.session
  // CHECK: executor.close %[[V6]] : !executor.session
  // CHECK: executor.close %[[PH]] : !executor.session
  // CHECK: executor.close %[[HN]] : !executor.session
  // CHECK: executor.close %[[MX]] : !executor.session
  executor.close %v6 : !executor.session
  executor.close %ph : !executor.session
  executor.close %hn : !executor.session
  executor.close %mx : !executor.session
  executor.close %ux : !executor.session
  return
}

//===----------------------------------------------------------------------===//
// executor.send_binary
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @send_binary
// CHECK-SAME: (%[[S:.+]]: !executor.session)
func.func @send_binary(%s: !executor.session) {
  // CHECK: executor.send_binary %[[S]]("/tmp/ws/compute/compute.o") : !executor.session
  executor.send_binary %s("/tmp/ws/compute/compute.o") : !executor.session
  // An explicit `format = 0` is the default and is not printed.
  // CHECK-NEXT: executor.send_binary %[[S]]("/tmp/ws/other/other.o") : !executor.session
  executor.send_binary %s("/tmp/ws/other/other.o") {format = 0 : i32} : !executor.session
  // CHECK-NEXT: return
  return
}

//===----------------------------------------------------------------------===//
// executor.launch
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @launch_no_inputs_no_results
// CHECK-SAME: (%[[S:.+]]: !executor.session)
func.func @launch_no_inputs_no_results(%s: !executor.session) {
  // CHECK: executor.launch %[[S]]("warmup", "/tmp/ws/c/c.o") () : !executor.session, () -> ()
  executor.launch %s("warmup", "/tmp/ws/c/c.o")() : !executor.session, () -> ()
  return
}

// CHECK-LABEL: func.func @launch_one_one
// CHECK-SAME: (%[[S:.+]]: !executor.session, %[[X:.+]]: memref<4xf64>) -> memref<4xf64>
func.func @launch_one_one(%s: !executor.session, %x: memref<4xf64>) -> memref<4xf64> {
  // CHECK: %[[R:.+]] = executor.launch %[[S]]("square", "/tmp/ws/c/c.o") (%[[X]]) : !executor.session, (memref<4xf64>) -> memref<4xf64>
  %r = executor.launch %s("square", "/tmp/ws/c/c.o")(%x) : !executor.session, (memref<4xf64>) -> memref<4xf64>
  // CHECK: return %[[R]] : memref<4xf64>
  return %r : memref<4xf64>
}

// CHECK-LABEL: func.func @launch_two_two
// CHECK-SAME: (%[[S:[^:]+]]: !executor.session, %[[X:[^:]+]]: memref<4xf64>, %[[Y:[^:]+]]: memref<2x3xi32>)
func.func @launch_two_two(%s: !executor.session, %x: memref<4xf64>, %y: memref<2x3xi32>) -> (memref<4xf64>, memref<?xf32>) {
  // CHECK: %[[R:.+]]:2 = executor.launch %[[S]]("pair", "/tmp/ws/c/c.o") (%[[X]], %[[Y]]) : !executor.session, (memref<4xf64>, memref<2x3xi32>) -> (memref<4xf64>, memref<?xf32>)
  %r:2 = executor.launch %s("pair", "/tmp/ws/c/c.o")(%x, %y) : !executor.session, (memref<4xf64>, memref<2x3xi32>) -> (memref<4xf64>, memref<?xf32>)
  // CHECK: return %[[R]]#0, %[[R]]#1 : memref<4xf64>, memref<?xf32>
  return %r#0, %r#1 : memref<4xf64>, memref<?xf32>
}

// Scalars beside memrefs, as inputs and results (issue 40).
// CHECK-LABEL: func.func @launch_scalars
// CHECK-SAME: (%[[S:[^:]+]]: !executor.session, %[[A:[^:]+]]: f64, %[[N:[^:]+]]: i32, %[[X:[^:]+]]: memref<8xf64>)
func.func @launch_scalars(%s: !executor.session, %a: f64, %n: i32, %x: memref<8xf64>) -> (memref<8xf64>, f64) {
  // CHECK: %[[R:.+]]:2 = executor.launch %[[S]]("axpy", "/tmp/ws/c/c.o") (%[[A]], %[[N]], %[[X]]) : !executor.session, (f64, i32, memref<8xf64>) -> (memref<8xf64>, f64)
  %r:2 = executor.launch %s("axpy", "/tmp/ws/c/c.o")(%a, %n, %x) : !executor.session, (f64, i32, memref<8xf64>) -> (memref<8xf64>, f64)
  return %r#0, %r#1 : memref<8xf64>, f64
}

// Every scalar type.
// CHECK-LABEL: func.func @launch_every_scalar
func.func @launch_every_scalar(%s: !executor.session, %b: i1, %c: i8, %d: i16, %e: i32, %f: i64, %g: index, %h: f16, %k: bf16, %l: f32, %m: f64) -> (i1, index, f16) {
  // CHECK: executor.launch {{.*}} : !executor.session, (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) -> (i1, index, f16)
  %r:3 = executor.launch %s("every", "/tmp/ws/c/c.o")(%b, %c, %d, %e, %f, %g, %h, %k, %l, %m) : !executor.session, (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) -> (i1, index, f16)
  return %r#0, %r#1, %r#2 : i1, index, f16
}

// Inputs without results, and results without inputs.
// CHECK-LABEL: func.func @launch_mixed
// CHECK-SAME: (%[[S:[^:]+]]: !executor.session, %[[X:[^:]+]]: memref<4xf64>)
func.func @launch_mixed(%s: !executor.session, %x: memref<4xf64>) -> memref<f64> {
  // CHECK: executor.launch %[[S]]("consume", "/tmp/ws/c/c.o") (%[[X]]) : !executor.session, (memref<4xf64>) -> ()
  executor.launch %s("consume", "/tmp/ws/c/c.o")(%x) : !executor.session, (memref<4xf64>) -> ()
  // CHECK: %[[R:.+]] = executor.launch %[[S]]("produce", "/tmp/ws/c/c.o") () : !executor.session, () -> memref<f64>
  %r = executor.launch %s("produce", "/tmp/ws/c/c.o")() : !executor.session, () -> memref<f64>
  return %r : memref<f64>
}

//===----------------------------------------------------------------------===//
// executor.launch_async / executor.await
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @launch_async_await
// CHECK-SAME: (%[[S:.+]]: !executor.session)
func.func @launch_async_await(%s: !executor.session) {
  // CHECK: %[[T0:.+]] = executor.launch_async %[[S]]("warmup", "/tmp/ws/c/c.o") : !executor.session -> !executor.token
  %t0 = executor.launch_async %s("warmup", "/tmp/ws/c/c.o") : !executor.session -> !executor.token
  // CHECK: %[[T1:.+]] = executor.launch_async %[[S]]("warmup", "/tmp/ws/d/d.o") : !executor.session -> !executor.token
  %t1 = executor.launch_async %s("warmup", "/tmp/ws/d/d.o") : !executor.session -> !executor.token
  // CHECK: executor.await %[[T1]] : !executor.token
  executor.await %t1 : !executor.token
  // CHECK: executor.await %[[T0]] : !executor.token
  executor.await %t0 : !executor.token
  return
}

// Tokens and sessions are ordinary SSA values: they cross function
// boundaries.
// CHECK-LABEL: func.func @await_argument
// CHECK-SAME: (%[[T:.+]]: !executor.token)
func.func @await_argument(%t: !executor.token) {
  // CHECK: executor.await %[[T]] : !executor.token
  executor.await %t : !executor.token
  return
}

//===----------------------------------------------------------------------===//
// executor.call
//===----------------------------------------------------------------------===//

// Tensor form (before bufferization).
// CHECK-LABEL: func.func @call_tensors
// CHECK-SAME: (%[[S:[^:]+]]: !executor.session, %[[A:[^:]+]]: tensor<4xf64>, %[[B:[^:]+]]: tensor<2x2xi64>)
func.func @call_tensors(%s: !executor.session, %a: tensor<4xf64>, %b: tensor<2x2xi64>) -> (tensor<4xf64>, tensor<8xi8>) {
  // CHECK: %[[R:.+]]:2 = executor.call %[[S]]("sample") (%[[A]], %[[B]]) : !executor.session, (tensor<4xf64>, tensor<2x2xi64>) -> (tensor<4xf64>, tensor<8xi8>)
  %r:2 = executor.call %s("sample")(%a, %b) : !executor.session, (tensor<4xf64>, tensor<2x2xi64>) -> (tensor<4xf64>, tensor<8xi8>)
  // CHECK: %[[ONE:.+]] = executor.call %[[S]]("norm") (%[[A]]) : !executor.session, (tensor<4xf64>) -> tensor<1xf64>
  %one = executor.call %s("norm")(%a) : !executor.session, (tensor<4xf64>) -> tensor<1xf64>
  // CHECK: executor.call %[[S]]("reset") () : !executor.session, () -> ()
  executor.call %s("reset")() : !executor.session, () -> ()
  // All operands are inputs when num_input_args equals their number.
  // CHECK: executor.call %[[S]]("log") (%[[A]]) {num_input_args = 1 : i32} : !executor.session, (tensor<4xf64>) -> ()
  executor.call %s("log")(%a) {num_input_args = 1 : i32} : !executor.session, (tensor<4xf64>) -> ()
  return %r#0, %r#1 : tensor<4xf64>, tensor<8xi8>
}

// Destination-passing form (after bufferization): the operands after
// num_input_args are memref output buffers.
// CHECK-LABEL: func.func @call_destination_passing
// CHECK-SAME: (%[[S:[^:]+]]: !executor.session, %[[IN:[^:]+]]: memref<4xf64>, %[[N:[^:]+]]: memref<i64>, %[[OUT:[^:]+]]: memref<4xf64>, %[[OUT2:[^:]+]]: memref<2xi32>)
func.func @call_destination_passing(%s: !executor.session, %in: memref<4xf64>, %n: memref<i64>, %out: memref<4xf64>, %out2: memref<2xi32>) {
  // CHECK: executor.call %[[S]]("sample") (%[[IN]], %[[N]], %[[OUT]], %[[OUT2]]) {num_input_args = 2 : i32} : !executor.session, (memref<4xf64>, memref<i64>, memref<4xf64>, memref<2xi32>) -> ()
  executor.call %s("sample")(%in, %n, %out, %out2) {num_input_args = 2 : i32} : !executor.session, (memref<4xf64>, memref<i64>, memref<4xf64>, memref<2xi32>) -> ()
  // Only outputs.
  // CHECK: executor.call %[[S]]("fill") (%[[OUT]]) {num_input_args = 0 : i32} : !executor.session, (memref<4xf64>) -> ()
  executor.call %s("fill")(%out) {num_input_args = 0 : i32} : !executor.session, (memref<4xf64>) -> ()
  return
}

// Tensor outputs are destination-passing style, as in linalg: each has a
// result of its type, and those results come first; memref outputs are
// filled in place, and any further result is allocated by the op.
// CHECK-LABEL: func.func @call_tensor_destinations
// CHECK-SAME: (%[[S:[^:]+]]: !executor.session, %[[IN:[^:]+]]: tensor<4xf64>, %[[INIT:[^:]+]]: tensor<4xf64>, %[[BUF:[^:]+]]: memref<2xi32>, %[[INIT2:[^:]+]]: tensor<3xi8>)
func.func @call_tensor_destinations(%s: !executor.session, %in: tensor<4xf64>, %init: tensor<4xf64>, %buf: memref<2xi32>, %init2: tensor<3xi8>) -> tensor<4xf64> {
  // CHECK: %[[R:.+]] = executor.call %[[S]]("scale") (%[[IN]], %[[INIT]]) {num_input_args = 1 : i32} : !executor.session, (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %r = executor.call %s("scale")(%in, %init) {num_input_args = 1 : i32} : !executor.session, (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  // CHECK: %{{.+}}:3 = executor.call %[[S]]("mixed") (%[[R]], %[[BUF]], %[[INIT2]]) {num_input_args = 1 : i32} : !executor.session, (tensor<4xf64>, memref<2xi32>, tensor<3xi8>) -> (tensor<3xi8>, tensor<1xf64>, tensor<2xf32>)
  %m:3 = executor.call %s("mixed")(%r, %buf, %init2) {num_input_args = 1 : i32} : !executor.session, (tensor<4xf64>, memref<2xi32>, tensor<3xi8>) -> (tensor<3xi8>, tensor<1xf64>, tensor<2xf32>)
  return %r : tensor<4xf64>
}

//===----------------------------------------------------------------------===//
// Everything together
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @session_lifetime
func.func @session_lifetime(%x: memref<4xf64>) -> memref<4xf64> {
  // CHECK: %[[S:.+]] = executor.open("ADDR:PORT") : !executor.session
  // CHECK-NEXT: executor.send_binary %[[S]]("/tmp/ws/compute/compute.o") : !executor.session
  // CHECK-NEXT: %[[T:.+]] = executor.launch_async %[[S]]("warmup", "/tmp/ws/compute/compute.o") : !executor.session -> !executor.token
  // CHECK-NEXT: executor.await %[[T]] : !executor.token
  // CHECK-NEXT: %[[R:.+]] = executor.launch %[[S]]("square", "/tmp/ws/compute/compute.o") (%{{.+}}) : !executor.session, (memref<4xf64>) -> memref<4xf64>
  // CHECK-NEXT: executor.close %[[S]] : !executor.session
  // CHECK-NEXT: return %[[R]] : memref<4xf64>
  %s = executor.open("ADDR:PORT") : !executor.session
  executor.send_binary %s("/tmp/ws/compute/compute.o") : !executor.session
  %t = executor.launch_async %s("warmup", "/tmp/ws/compute/compute.o") : !executor.session -> !executor.token
  executor.await %t : !executor.token
  %r = executor.launch %s("square", "/tmp/ws/compute/compute.o")(%x) : !executor.session, (memref<4xf64>) -> memref<4xf64>
  executor.close %s : !executor.session
  return %r : memref<4xf64>
}
