// Round trip of catalyst.launch_kernel, catalyst.runtime_call,
// catalyst.custom_call and every catalyst.* attribute.
//
// RUN: executor-opt %s | FileCheck %s
// RUN: executor-opt %s | executor-opt | FileCheck %s
// RUN: executor-opt %s -mlir-print-op-generic | executor-opt | FileCheck %s

// CHECK: module attributes {catalyst.object_files = ["/tmp/ws/local/local.o", "/tmp/ws/helpers/helpers.o"]}
module attributes {catalyst.object_files = ["/tmp/ws/local/local.o", "/tmp/ws/helpers/helpers.o"]} {

  // A dispatched target with an explicit triple. Attributes print sorted.
  // CHECK: module @mod attributes {catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.target = {triple = "x86_64-unknown-linux-gnu"}}
  module @mod attributes {catalyst.target = {triple = "x86_64-unknown-linux-gnu"}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    // CHECK: func.func @entry(%{{.+}}: memref<4xf64>) -> memref<4xf64>
    func.func @entry(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
    // CHECK: func.func @pair(%{{.+}}: memref<4xf64>, %{{.+}}: memref<2xi32>) -> (memref<4xf64>, memref<2xi32>)
    func.func @pair(%x: memref<4xf64>, %y: memref<2xi32>) -> (memref<4xf64>, memref<2xi32>) {
      return %x, %y : memref<4xf64>, memref<2xi32>
    }
    // CHECK: func.func @warmup()
    func.func @warmup() {
      return
    }
  }

  // Target given as a dictionary with a triple and a pipeline, on an IPv6
  // executor.
  // CHECK: module @v6 attributes {catalyst.dispatch = {address = "[::1]:4711"}, catalyst.target = {pipeline = "builtin.module(canonicalize)", triple = "aarch64-unknown-linux-gnu"}}
  module @v6 attributes {catalyst.target = {triple = "aarch64-unknown-linux-gnu", pipeline = "builtin.module(canonicalize)"}, catalyst.dispatch = {address = "[::1]:4711"}} {
    func.func @entry(%x: tensor<4xf64>) -> tensor<4xf64> {
      return %x : tensor<4xf64>
    }
  }

  // An empty target dictionary, a placeholder address and a recorded object.
  // CHECK: module @placeholder attributes {catalyst.dispatch = {address = "ADDR:PORT"}, catalyst.object_file = "/tmp/ws/placeholder/placeholder.o", catalyst.target = {}}
  module @placeholder attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}, catalyst.object_file = "/tmp/ws/placeholder/placeholder.o"} {
    func.func @entry() {
      return
    }
  }

  // An executor on this host, at its Unix socket.
  // CHECK: module @on_unix attributes {catalyst.dispatch = {address = "unix:/run/user/1000/executor.sock"}, catalyst.target = {}}
  module @on_unix attributes {catalyst.target = {}, catalyst.dispatch = {address = "unix:/run/user/1000/executor.sock"}} {
    func.func @entry() {
      return
    }
  }

  // A local target written as a unit attribute.
  // CHECK: module @local attributes {catalyst.target}
  module @local attributes {catalyst.target} {
    func.func @sum(%x: memref<4xf64>) -> memref<1xf64> {
      %r = memref.alloc() : memref<1xf64>
      return %r : memref<1xf64>
    }
  }

  // Other catalyst.* attributes are not modelled and pass through.
  // CHECK: module @other attributes {catalyst.something_else = 3 : i64}
  module @other attributes {catalyst.something_else = 3} {
  }

  // CHECK-LABEL: func.func @host
  // CHECK-SAME: (%[[X:[^:]+]]: memref<4xf64>, %[[Y:[^:]+]]: memref<2xi32>, %[[T:[^:]+]]: tensor<4xf64>)
  func.func @host(%x: memref<4xf64>, %y: memref<2xi32>, %t: tensor<4xf64>) -> memref<1xf64> {
    // CHECK: %{{.+}} = catalyst.launch_kernel @mod::@entry(%[[X]]) : (memref<4xf64>) -> memref<4xf64>
    %a = catalyst.launch_kernel @mod::@entry(%x) : (memref<4xf64>) -> memref<4xf64>
    // CHECK: %{{.+}}:2 = catalyst.launch_kernel @mod::@pair(%[[X]], %[[Y]]) : (memref<4xf64>, memref<2xi32>) -> (memref<4xf64>, memref<2xi32>)
    %b:2 = catalyst.launch_kernel @mod::@pair(%x, %y) : (memref<4xf64>, memref<2xi32>) -> (memref<4xf64>, memref<2xi32>)
    // CHECK: catalyst.launch_kernel @mod::@warmup() {catalyst.nonblocking} : () -> ()
    catalyst.launch_kernel @mod::@warmup() {catalyst.nonblocking} : () -> ()
    // CHECK: catalyst.launch_kernel @placeholder::@entry() : () -> ()
    catalyst.launch_kernel @placeholder::@entry() : () -> ()
    // CHECK: %{{.+}} = catalyst.launch_kernel @local::@sum(%[[X]]) : (memref<4xf64>) -> memref<1xf64>
    %s = catalyst.launch_kernel @local::@sum(%x) : (memref<4xf64>) -> memref<1xf64>
    return %s : memref<1xf64>
  }

  // The host and a target bufferize separately: a tensor on one side matches
  // a memref of the same shape and element type on the other.
  // CHECK-LABEL: func.func @tensor_memref_mix
  func.func @tensor_memref_mix(%x: memref<4xf64>, %t: tensor<4xf64>) {
    // Host tensor, kernel memref.
    // CHECK: %{{.+}} = catalyst.launch_kernel @mod::@entry(%{{.+}}) : (tensor<4xf64>) -> tensor<4xf64>
    %a = catalyst.launch_kernel @mod::@entry(%t) : (tensor<4xf64>) -> tensor<4xf64>
    // Host memref, kernel tensor.
    // CHECK: %{{.+}} = catalyst.launch_kernel @v6::@entry(%{{.+}}) : (memref<4xf64>) -> memref<4xf64>
    %b = catalyst.launch_kernel @v6::@entry(%x) : (memref<4xf64>) -> memref<4xf64>
    // Mixed within one launch.
    // CHECK: %{{.+}} = catalyst.launch_kernel @v6::@entry(%{{.+}}) : (tensor<4xf64>) -> memref<4xf64>
    %c = catalyst.launch_kernel @v6::@entry(%t) : (tensor<4xf64>) -> memref<4xf64>
    return
  }

  // CHECK-LABEL: func.func @runtime_calls
  // CHECK-SAME: (%[[SHOTS:[^:]+]]: i64, %[[OUT:[^:]+]]: tensor<8xf64>, %[[F:[^:]+]]: f32, %[[I:[^:]+]]: index, %[[P:[^:]+]]: !llvm.ptr, %[[B:[^:]+]]: i1)
  func.func @runtime_calls(%shots: i64, %out: tensor<8xf64>, %f: f32, %i: index, %p: !llvm.ptr, %b: i1) {
    // The example of the op reference, dispatched to an executor.
    // CHECK: %{{.+}}:2 = catalyst.runtime_call "sample"(%[[SHOTS]], %[[OUT]]) {c_params = ["i64", "str", "out"], c_strings = ["z-basis"], dispatch = "127.0.0.1:4711"} : (i64, tensor<8xf64>) -> (i32, tensor<8xf64>)
    %n, %buf = catalyst.runtime_call "sample"(%shots, %out) {c_params = ["i64", "str", "out"], c_strings = ["z-basis"], dispatch = "127.0.0.1:4711"} : (i64, tensor<8xf64>) -> (i32, tensor<8xf64>)
    // The program's single executor.
    // CHECK: catalyst.runtime_call "reset"() {c_params = [], dispatch = ""} : () -> ()
    catalyst.runtime_call "reset"() {c_params = [], dispatch = ""} : () -> ()
    // On the host: no dispatch.
    // CHECK: %{{.+}} = catalyst.runtime_call "host_fn"(%[[F]], %[[I]], %[[P]], %[[B]]) {c_params = ["f64", "i32", "ptr", "i1"]} : (f32, index, !llvm.ptr, i1) -> f64
    %h = catalyst.runtime_call "host_fn"(%f, %i, %p, %b) {c_params = ["f64", "i32", "ptr", "i1"]} : (f32, index, !llvm.ptr, i1) -> f64
    // ptr as an index and as an i64; every scalar kind.
    // CHECK: catalyst.runtime_call "scalars"(%[[I]], %[[SHOTS]], %[[B]], %[[SHOTS]], %[[SHOTS]], %[[I]], %[[SHOTS]], %[[F]], %[[F]], %[[F]]) {c_params = ["ptr", "ptr", "i1", "i8", "i16", "i32", "i64", "f16", "f32", "f64"]} : (index, i64, i1, i64, i64, index, i64, f32, f32, f32) -> ()
    catalyst.runtime_call "scalars"(%i, %shots, %b, %shots, %shots, %i, %shots, %f, %f, %f) {c_params = ["ptr", "ptr", "i1", "i8", "i16", "i32", "i64", "f16", "f32", "f64"]} : (index, i64, i1, i64, i64, index, i64, f32, f32, f32) -> ()
    // Only out parameters, no declared result; several strings.
    // CHECK: %{{.+}}:2 = catalyst.runtime_call "two_outs"(%[[OUT]], %[[OUT]]) {c_params = ["str", "out", "str", "out"], c_strings = ["a", "b"], dispatch = "[::1]:4711"} : (tensor<8xf64>, tensor<8xf64>) -> (tensor<8xf64>, tensor<8xf64>)
    %o:2 = catalyst.runtime_call "two_outs"(%out, %out) {c_params = ["str", "out", "str", "out"], c_strings = ["a", "b"], dispatch = "[::1]:4711"} : (tensor<8xf64>, tensor<8xf64>) -> (tensor<8xf64>, tensor<8xf64>)
    // A declared result and no parameters, to a placeholder address.
    // CHECK: %{{.+}} = catalyst.runtime_call "version"() {c_params = [], dispatch = "ADDR:PORT"} : () -> i32
    %v = catalyst.runtime_call "version"() {c_params = [], dispatch = "ADDR:PORT"} : () -> i32
    return
  }

  // catalyst.custom_call as Catalyst writes it: on memrefs after
  // bufferization (number_original_arg marks where the inputs end), with a
  // dispatch in backend_config, or on the host.
  // CHECK-LABEL: func.func @custom_calls
  // CHECK-SAME: (%[[M:[^:]+]]: memref<256xi8>, %[[T:[^:]+]]: tensor<4xf64>, %[[O:[^:]+]]: memref<4xf64>)
  func.func @custom_calls(%m: memref<256xi8>, %t: tensor<4xf64>, %o: memref<4xf64>) {
    // CHECK: catalyst.custom_call fn("foo") (%[[M]]) {backend_config = {dispatch = "ADDR:PORT"}, number_original_arg = 1 : i32} : (memref<256xi8>) -> ()
    catalyst.custom_call fn("foo") (%m) {backend_config = {dispatch = "ADDR:PORT"}, number_original_arg = 1 : i32} : (memref<256xi8>) -> ()
    // CHECK: catalyst.custom_call fn("foo") () {backend_config = {dispatch = ""}} : () -> ()
    catalyst.custom_call fn("foo") () {backend_config = {dispatch = ""}} : () -> ()
    // CHECK: catalyst.custom_call fn("lapack_dsyevd") (%[[M]], %[[O]]) {backend_config = {dispatch = "[::1]:4711", other = 3 : i64}, number_original_arg = 1 : i32} : (memref<256xi8>, memref<4xf64>) -> ()
    catalyst.custom_call fn("lapack_dsyevd") (%m, %o) {backend_config = {dispatch = "[::1]:4711", other = 3 : i64}, number_original_arg = 1 : i32} : (memref<256xi8>, memref<4xf64>) -> ()
    // CHECK: %{{.+}} = catalyst.custom_call fn("host_fn") (%[[T]]) : (tensor<4xf64>) -> tensor<4xf64>
    %r = catalyst.custom_call fn("host_fn") (%t) : (tensor<4xf64>) -> tensor<4xf64>
    return
  }
}
