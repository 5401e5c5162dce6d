// Every executor op written in the generic form parses and prints in its
// custom form.
//

func.func @open_send_close() {
  // CHECK: %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
  %s = "executor.open"() <{address = "127.0.0.1:4711"}> : () -> !executor.session
  // CHECK: %[[V6:.+]] = executor.open("[::1]:4711") : !executor.session
  %v6 = "executor.open"() <{address = "[::1]:4711"}> : () -> !executor.session
  // CHECK: %[[PH:.+]] = executor.open("ADDR:PORT") : !executor.session
  %ph = "executor.open"() <{address = "ADDR:PORT"}> : () -> !executor.session
  // CHECK: executor.send_binary %[[S]]("/tmp/ws/a/a.o") : !executor.session
  "executor.send_binary"(%s) <{binary_path = "/tmp/ws/a/a.o"}> : (!executor.session) -> ()
  // CHECK: executor.send_binary %[[V6]]("/tmp/ws/b/b.o") : !executor.session
  "executor.send_binary"(%v6) <{binary_path = "/tmp/ws/b/b.o", format = 0 : i32}> : (!executor.session) -> ()
  // CHECK: executor.close %[[S]] : !executor.session
  "executor.close"(%s) : (!executor.session) -> ()
  // CHECK: executor.close %[[V6]] : !executor.session
  "executor.close"(%v6) : (!executor.session) -> ()
  // CHECK: executor.close %[[PH]] : !executor.session
  "executor.close"(%ph) : (!executor.session) -> ()
  return
}

func.func @launches(%s: !executor.session, %x: memref<4xf64>, %y: memref<2xi32>) {
  // CHECK: executor.launch %[[S]]("warmup", "/tmp/ws/c/c.o") () : !executor.session, () -> ()
  "executor.launch"(%s) <{kernel_callee = "warmup", object = "/tmp/ws/c/c.o"}> : (!executor.session) -> ()
  // CHECK: %{{.+}} = executor.launch %[[S]]("square", "/tmp/ws/c/c.o") (%[[X]]) : !executor.session, (memref<4xf64>) -> memref<4xf64>
  %r = "executor.launch"(%s, %x) <{kernel_callee = "square", object = "/tmp/ws/c/c.o"}> : (!executor.session, memref<4xf64>) -> memref<4xf64>
  // CHECK: %{{.+}}:2 = executor.launch %[[S]]("pair", "/tmp/ws/c/c.o") (%[[X]], %[[Y]]) : !executor.session, (memref<4xf64>, memref<2xi32>) -> (memref<4xf64>, memref<2xi32>)
  %p:2 = "executor.launch"(%s, %x, %y) <{kernel_callee = "pair", object = "/tmp/ws/c/c.o"}> : (!executor.session, memref<4xf64>, memref<2xi32>) -> (memref<4xf64>, memref<2xi32>)
  // CHECK: %[[T:.+]] = executor.launch_async %[[S]]("warmup", "/tmp/ws/c/c.o") : !executor.session -> !executor.token
  %t = "executor.launch_async"(%s) <{kernel_callee = "warmup", object = "/tmp/ws/c/c.o"}> : (!executor.session) -> !executor.token
  // CHECK: executor.await %[[T]] : !executor.token
  "executor.await"(%t) : (!executor.token) -> ()
  return
}

func.func @calls(%s: !executor.session, %a: tensor<4xf64>, %in: memref<4xf64>, %out: memref<4xf64>) -> tensor<4xf64> {
  // CHECK: %[[R:.+]] = executor.call %[[S]]("norm") (%[[A]]) : !executor.session, (tensor<4xf64>) -> tensor<4xf64>
  %r = "executor.call"(%s, %a) <{symbol = "norm"}> : (!executor.session, tensor<4xf64>) -> tensor<4xf64>
  // CHECK: executor.call %[[S]]("sample") (%[[IN]], %[[OUT]]) {num_input_args = 1 : i32} : !executor.session, (memref<4xf64>, memref<4xf64>) -> ()
  "executor.call"(%s, %in, %out) <{num_input_args = 1 : i32, symbol = "sample"}> : (!executor.session, memref<4xf64>, memref<4xf64>) -> ()
  // CHECK: return %[[R]] : tensor<4xf64>
  return %r : tensor<4xf64>
}

// Inherent attributes given in the attribute dictionary instead of the
// property dictionary are accepted too (MLIR's compatibility path).
func.func @attr_dict_form() {
  // CHECK: %[[S:.+]] = executor.open("localhost:4711") : !executor.session
  %s = "executor.open"() {address = "localhost:4711"} : () -> !executor.session
  // CHECK: executor.send_binary %[[S]]("/tmp/x.o") : !executor.session
  "executor.send_binary"(%s) {binary_path = "/tmp/x.o"} : (!executor.session) -> ()
  // CHECK: executor.close %[[S]] : !executor.session
  "executor.close"(%s) : (!executor.session) -> ()
  return
}
