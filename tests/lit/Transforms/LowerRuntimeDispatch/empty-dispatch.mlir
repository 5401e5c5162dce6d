// dispatch = "" binds to the program's single executor: the address in the
// catalyst.dispatch of its target modules.
//
// RUN: executor-opt %s -split-input-file --lower-runtime-dispatch | FileCheck %s

// CHECK-LABEL: module @single
// CHECK:       func.func @main(
// CHECK-DAG:     %[[S:.+]] = executor.open("10.0.0.7:4711") : !executor.session
// An explicit address still gets its own session.
// CHECK-DAG:     %[[E:.+]] = executor.open("127.0.0.1:1") : !executor.session
// CHECK-NOT:     executor.open
// CHECK:         executor.call %[[S]]("sample")
// CHECK:         executor.call %[[E]]("elsewhere")
// CHECK-NOT:     catalyst.runtime_call
// The target module is left for the later passes.
// CHECK:         module @compute attributes {catalyst.dispatch = {address = "10.0.0.7:4711"}, catalyst.target = {}}
module @single {
  func.func @main(%n: i64) -> i32 {
    %r = catalyst.runtime_call "sample"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> i32
    catalyst.runtime_call "elsewhere"(%n) {c_params = ["i64"], dispatch = "127.0.0.1:1"} : (i64) -> ()
    return %r : i32
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "10.0.0.7:4711"}} {
    func.func @kernel() {
      return
    }
  }
}

// -----

// Two target modules on one address are still one executor; local targets
// (no catalyst.dispatch) do not count.

// CHECK-LABEL: module @shared_address
// CHECK:       func.func @main(
// CHECK-NEXT:    %[[S:.+]] = executor.open("ADDR:PORT") : !executor.session
// CHECK-NOT:     executor.open
// CHECK:         executor.call %[[S]]("a")
// CHECK:         executor.call %[[S]]("b")
module @shared_address {
  func.func @main(%n: i64) {
    catalyst.runtime_call "a"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    catalyst.runtime_call "b"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    return
  }
  module @one attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
  }
  module @two attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
  }
  module @local attributes {catalyst.target = {}} {
  }
}

// -----

// The empty dispatch and an explicit one naming the same address share the
// session.

// CHECK-LABEL: module @same_as_explicit
// CHECK:       func.func @main(
// CHECK-NEXT:    %[[S:.+]] = executor.open("127.0.0.1:4711") : !executor.session
// CHECK-NOT:     executor.open
// CHECK:         executor.call %[[S]]("implicit")
// CHECK:         executor.call %[[S]]("explicit")
module @same_as_explicit {
  func.func @main(%n: i64) {
    catalyst.runtime_call "implicit"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    catalyst.runtime_call "explicit"(%n) {c_params = ["i64"], dispatch = "127.0.0.1:4711"} : (i64) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

// -----

// Without any dispatched call the pass does nothing, even when the program
// has no executor.

// CHECK-LABEL: module @nothing_to_do
// CHECK-NOT:     executor.
// CHECK:         catalyst.runtime_call "host"
// CHECK-NOT:     executor.
module @nothing_to_do {
  func.func @main(%n: i64) {
    catalyst.runtime_call "host"(%n) {c_params = ["i64"]} : (i64) -> ()
    return
  }
}
