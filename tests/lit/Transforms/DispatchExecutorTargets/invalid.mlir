// Every error of dispatch-executor-targets.
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics --dispatch-executor-targets

// A dispatched module that was not compiled.

module {
  // expected-error @+1 {{'builtin.module' op is dispatched to 127.0.0.1:4711 but has no catalyst.object_file; run cross-compile-targets first}}
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

// -----

// A dispatched module that is no target: nothing compiles it (issue 40).

module {
  // expected-error @+1 {{'builtin.module' op is dispatched to 127.0.0.1:4711 but has no catalyst.object_file and is not a catalyst.target, which cross-compile-targets would compile; add catalyst.target = {} to @compute (or catalyst.object_file for an object compiled elsewhere)}}
  module @compute attributes {catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

// -----

// An empty object path.

module {
  // expected-error @+1 {{'builtin.module' op is dispatched to 127.0.0.1:4711 but has no catalyst.object_file; run cross-compile-targets first}}
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = ""} {
  }
}

// -----

// Every such module is reported.

module {
  // expected-error @+1 {{'builtin.module' op is dispatched to 127.0.0.1:4711 but has no catalyst.object_file}}
  module @a attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
  // expected-error @+1 {{'builtin.module' op is dispatched to 10.0.0.1:1 but has no catalyst.object_file}}
  module @b attributes {catalyst.target = {}, catalyst.dispatch = {address = "10.0.0.1:1"}, catalyst.object_file = ""} {
  }
}

// -----

// Launches take and return memrefs and scalars: bufferize first.

module {
  func.func @main(%x: tensor<4xf64>) -> memref<4xf64> {
    // expected-error @+1 {{'catalyst.launch_kernel' op operand of type 'tensor<4xf64>' cannot be sent to an executor: launches into a dispatched target take memrefs and scalars (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) only (run one-shot-bufferize first)}}
    %y = catalyst.launch_kernel @compute::@square(%x) : (tensor<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}

// -----

// A scalar the C ABI does not carry (issue 40: i1-i64, index and f16-f64
// go by pointer; see launch-scalars.mlir).

module {
  func.func @main(%x: complex<f64>) {
    // expected-error @+1 {{'catalyst.launch_kernel' op operand of type 'complex<f64>' cannot be sent to an executor: launches into a dispatched target take memrefs and scalars (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) only}}
    catalyst.launch_kernel @compute::@scalar(%x) : (complex<f64>) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @scalar(complex<f64>)
  }
}

// -----

module {
  func.func @main(%x: memref<4xf64>) -> i128 {
    // expected-error @+1 {{'catalyst.launch_kernel' op result of type 'i128' cannot come back from an executor: launches into a dispatched target return memrefs and scalars (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) only}}
    %y = catalyst.launch_kernel @compute::@wide(%x) : (memref<4xf64>) -> i128
    return %y : i128
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @wide(memref<4xf64>) -> i128
  }
}

// -----

module {
  func.func @main(%x: memref<4xf64>) -> tensor<4xf64> {
    // expected-error @+1 {{'catalyst.launch_kernel' op result of type 'tensor<4xf64>' cannot come back from an executor: launches into a dispatched target return memrefs and scalars (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) only (run one-shot-bufferize first)}}
    %y = catalyst.launch_kernel @compute::@square(%x) : (memref<4xf64>) -> tensor<4xf64>
    return %y : tensor<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
  }
}

// -----

// A nonblocking launch runs a () -> () entry.

module {
  func.func @main(%x: memref<4xf64>) {
    // expected-error @+1 {{'catalyst.launch_kernel' op nonblocking dispatch requires a '()->()' callee, but @compute::@consume is marked catalyst.nonblocking and takes arguments or returns results: executor.launch_async runs entries without either}}
    catalyst.launch_kernel @compute::@consume(%x) {catalyst.nonblocking} : (memref<4xf64>) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @consume(memref<4xf64>)
  }
}

// -----

module {
  func.func @main() -> memref<4xf64> {
    // expected-error @+1 {{'catalyst.launch_kernel' op nonblocking dispatch requires a '()->()' callee, but @compute::@produce is marked catalyst.nonblocking}}
    %y = catalyst.launch_kernel @compute::@produce() {catalyst.nonblocking} : () -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @produce() -> memref<4xf64>
  }
}

// -----

// Every bad launch is reported.

module {
  func.func @main(%x: tensor<4xf64>, %m: memref<4xf64>) {
    // expected-error @+1 {{operand of type 'tensor<4xf64>' cannot be sent to an executor}}
    %a = catalyst.launch_kernel @compute::@square(%x) : (tensor<4xf64>) -> memref<4xf64>
    // expected-error @+1 {{is marked catalyst.nonblocking}}
    catalyst.launch_kernel @compute::@consume(%m) {catalyst.nonblocking} : (memref<4xf64>) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @square(memref<4xf64>) -> memref<4xf64>
    func.func private @consume(memref<4xf64>)
  }
}
