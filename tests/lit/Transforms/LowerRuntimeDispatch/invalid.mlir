// Every error of lower-runtime-dispatch.
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics --lower-runtime-dispatch

// An empty dispatch in a program without an executor.

func.func @no_executor(%n: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op has an empty dispatch but the program has no executor address: write dispatch = "host:port", or give a dispatched module catalyst.dispatch = {address = "host:port"}}}
  catalyst.runtime_call "sample"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
  return
}

// -----

// A local target (no catalyst.dispatch) is not an executor.

module {
  func.func @local_target_only(%n: i64) {
    // expected-error @+1 {{has an empty dispatch but the program has no executor address}}
    catalyst.runtime_call "sample"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    return
  }
  module @local attributes {catalyst.target = {}} {
  }
}

// -----

// An empty dispatch in a program with two executors: ambiguous; both are
// listed.

module {
  func.func @two_executors(%n: i64) {
    // expected-error @+1 {{'catalyst.runtime_call' op has an empty dispatch, an ambiguous executor: the program has 2 executors (127.0.0.1:4711, 10.0.0.2:5000); write the address in dispatch}}
    catalyst.runtime_call "sample"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
    return
  }
  module @a attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
  module @b attributes {catalyst.target = {}, catalyst.dispatch = {address = "10.0.0.2:5000"}} {
  }
}

// -----

// Every offending call is reported, not only the first.

func.func @each_call_reported(%n: i64) {
  // expected-error @+1 {{has an empty dispatch but the program has no executor address}}
  catalyst.runtime_call "first"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
  // expected-error @+1 {{has an empty dispatch but the program has no executor address}}
  catalyst.runtime_call "second"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
  return
}

// -----

// A string of 256 bytes would lose its NUL terminator in the 256-byte slot.

func.func @string_too_long() {
  // expected-error @+1 {{'catalyst.runtime_call' op c_strings entry of 256 bytes does not fit the 256-byte string slot of the executor wire layout (at most 255 bytes and a NUL)}}
  catalyst.runtime_call "log"() {c_params = ["str"], c_strings = ["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"], dispatch = "127.0.0.1:4711"} : () -> ()
  return
}

// -----

// The second string of a call is checked too.

func.func @second_string_too_long() {
  // expected-error @+1 {{c_strings entry of 300 bytes does not fit}}
  catalyst.runtime_call "log"() {c_params = ["str", "str"], c_strings = ["ok", "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"], dispatch = "127.0.0.1:4711"} : () -> ()
  return
}

// -----

// The session is opened at a function's entry: a call outside any function
// cannot be dispatched.

module {
  // expected-error @+1 {{'catalyst.runtime_call' op must be inside a function to be dispatched}}
  catalyst.runtime_call "x"() {c_params = [], dispatch = "127.0.0.1:4711"} : () -> ()
}
