// dispatch-executor-targets rewrites a catalyst.custom_call whose
// backend_config carries a dispatch into executor.call on that executor's
// session: number_original_arg becomes num_input_args, the operands and
// results stay. An empty dispatch means the program's only executor. The
// session is opened in setup() (with the targets' sessions) and in the
// function that calls; a custom_call without dispatch stays on the host.
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics --dispatch-executor-targets | FileCheck %s

// An explicit address, and no target module at all.
// CHECK-LABEL: module @explicit
// CHECK:       func.func @setup()
// CHECK-NEXT:    executor.open("ADDR:PORT") : !executor.session
// CHECK-NEXT:    return
// CHECK:       func.func @main(%[[ARG:.+]]: memref<256xi8>, %[[OUT:.+]]: memref<4xf64>)
// CHECK-NEXT:    %[[S:.+]] = executor.open("ADDR:PORT") : !executor.session
// CHECK-NEXT:    executor.call %[[S]]("foo") (%[[ARG]], %[[OUT]]) {num_input_args = 1 : i32} : !executor.session, (memref<256xi8>, memref<4xf64>) -> ()
// CHECK-NEXT:    catalyst.custom_call fn("host_only") (%[[ARG]]) : (memref<256xi8>) -> ()
// CHECK-NEXT:    executor.call %[[S]]("bar") () : !executor.session, () -> ()
// CHECK-NEXT:    return
module @explicit {
  func.func @setup() {
    return
  }
  func.func @main(%arg0: memref<256xi8>, %out: memref<4xf64>) {
    catalyst.custom_call fn("foo") (%arg0, %out) {backend_config = {dispatch = "ADDR:PORT"}, number_original_arg = 1 : i32} : (memref<256xi8>, memref<4xf64>) -> ()
    catalyst.custom_call fn("host_only") (%arg0) : (memref<256xi8>) -> ()
    catalyst.custom_call fn("bar") () {backend_config = {dispatch = "ADDR:PORT"}} : () -> ()
    return
  }
}

// -----

// An empty dispatch binds to the only executor; the dispatched module has
// catalyst.dispatch and catalyst.object_file but no catalyst.target (what
// Catalyst's cross-compile-targets leaves). One session serves the launch
// and the call.
// CHECK-LABEL: module @inherit
// CHECK:       func.func @setup()
// CHECK-NEXT:    %[[SS:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NEXT:    executor.send_binary %[[SS]]("/tmp/target.o") : !executor.session
// CHECK:       func.func @main()
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK:         executor.launch %[[S]]("compute", "/tmp/target.o") () : !executor.session, () -> ()
// CHECK-NEXT:    %[[R:.+]] = executor.call %[[S]]("norm") (%{{.+}}) : !executor.session, (tensor<4xf64>) -> tensor<1xf64>
// CHECK-NOT:     executor.open
// CHECK-NOT:     module @target
module @inherit {
  func.func @setup() {
    return
  }
  func.func @main() -> tensor<1xf64> {
    %x = arith.constant dense<1.0> : tensor<4xf64>
    catalyst.launch_kernel @target::@compute() : () -> ()
    %r = catalyst.custom_call fn("norm") (%x) {backend_config = {dispatch = ""}} : (tensor<4xf64>) -> tensor<1xf64>
    return %r : tensor<1xf64>
  }
  module @target attributes {catalyst.object_file = "/tmp/target.o", catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func public @compute() {
      return
    }
  }
}

// -----

// Without setup() the session is opened where the call is.
// CHECK-LABEL: module @no_setup
// CHECK:       func.func @f()
// CHECK-NEXT:    %[[S:.+]] = executor.open("[::1]:4711") : !executor.session
// CHECK-NEXT:    executor.call %[[S]]("reset") () : !executor.session, () -> ()
module @no_setup {
  func.func @f() {
    catalyst.custom_call fn("reset") () {backend_config = {dispatch = "[::1]:4711"}} : () -> ()
    return
  }
}

// -----

module @ambiguous {
  func.func @main() {
    catalyst.launch_kernel @t1::@c1() : () -> ()
    catalyst.launch_kernel @t2::@c2() : () -> ()
    // expected-error @+1 {{'catalyst.custom_call' op has an empty backend_config dispatch, an ambiguous executor: the program has 2 executors (host:1, host:2); write the address in backend_config dispatch}}
    catalyst.custom_call fn("foo") () {backend_config = {dispatch = ""}} : () -> ()
    return
  }
  module @t1 attributes {catalyst.object_file = "/tmp/t1.o", catalyst.dispatch = {address = "host:1"}} {
    func.func public @c1() {
      return
    }
  }
  module @t2 attributes {catalyst.object_file = "/tmp/t2.o", catalyst.dispatch = {address = "host:2"}} {
    func.func public @c2() {
      return
    }
  }
}

// -----

module @no_executor {
  func.func @main() {
    // expected-error @+1 {{'catalyst.custom_call' op has an empty backend_config dispatch but the program has no executor address: write backend_config dispatch = "host:port", or give a dispatched module catalyst.dispatch = {address = "host:port"}}}
    catalyst.custom_call fn("foo") () {backend_config = {dispatch = ""}} : () -> ()
    return
  }
}

// -----

module @scalar_operand {
  func.func @main(%n: i64) {
    // expected-error @+1 {{'catalyst.custom_call' op operand of type 'i64' cannot be sent to an executor: executor.call takes ranked tensors and memrefs only (pass a scalar as tensor<1xT>)}}
    catalyst.custom_call fn("foo") (%n) {backend_config = {dispatch = "127.0.0.1:4711"}} : (i64) -> ()
    return
  }
}

// -----

module @memref_result {
  func.func @main() {
    // expected-error @+1 {{'catalyst.custom_call' op result of type 'memref<4xf64>' cannot come back from an executor: executor.call returns ranked tensors, or fills memref output buffers after number_original_arg}}
    %r = catalyst.custom_call fn("foo") () {backend_config = {dispatch = "127.0.0.1:4711"}} : () -> memref<4xf64>
    return
  }
}

// -----

// A custom_call without dispatch leaves the program as it is.
// CHECK-LABEL: module @host_only
// CHECK:         catalyst.custom_call fn("lapack") (%{{.+}}) : (memref<4xf64>) -> ()
// CHECK-NOT:     executor.
module @host_only {
  func.func @main(%m: memref<4xf64>) {
    catalyst.custom_call fn("lapack") (%m) : (memref<4xf64>) -> ()
    return
  }
}
