// Every error of catalyst.launch_kernel, catalyst.runtime_call and the
// catalyst.* attributes, one per chunk.
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// catalyst.launch_kernel
//===----------------------------------------------------------------------===//

module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) -> memref<4xf64> {
    return %x : memref<4xf64>
  }
}
func.func @flat_callee(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @entry must name an entry of a nested target module as @module::@entry}}
  %r = catalyst.launch_kernel @entry(%x) : (memref<4xf64>) -> memref<4xf64>
  return
}

// -----

func.func @too_deep_callee(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @a::@b::@c must name an entry of a nested target module as @module::@entry}}
  catalyst.launch_kernel @a::@b::@c(%x) : (memref<4xf64>) -> ()
  return
}

// -----

func.func @notmod() {
  return
}
func.func @root_not_a_module() {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @notmod::@entry: @notmod is a 'func.func', not a nested builtin.module}}
  catalyst.launch_kernel @notmod::@entry() : () -> ()
  return
}

// -----

module @mod attributes {catalyst.target = {}} {
  func.func @entry() {
    return
  }
}
func.func @missing_function() {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @mod::@nope: module @mod has no function @nope}}
  catalyst.launch_kernel @mod::@nope() : () -> ()
  return
}

// -----

// A misspelled callee: the verifier names the kernels a few edits away
// (issue 40), whichever part is misspelled.
module @vec attributes {catalyst.target = {}} {
  func.func @vadd() {
    return
  }
}
func.func @misspelled_entry() {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @vec::@vaddd: module @vec has no function @vaddd; did you mean @vec::@vadd?}}
  catalyst.launch_kernel @vec::@vaddd() : () -> ()
  return
}

// -----

module @vec attributes {catalyst.target = {}} {
  func.func @vadd() {
    return
  }
}
func.func @misspelled_module() {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @vce::@vadd: there is no module @vce in scope; launches name a nested builtin.module tagged catalyst.target (or dispatched with catalyst.dispatch); did you mean @vec::@vadd?}}
  catalyst.launch_kernel @vce::@vadd() : () -> ()
  return
}

// -----

module @vec attributes {catalyst.target = {}} {
  func.func @vadd() {
    return
  }
  func.func @vand() {
    return
  }
}
func.func @two_as_near() {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @vec::@vaxd: module @vec has no function @vaxd; did you mean @vec::@vadd or @vec::@vand?}}
  catalyst.launch_kernel @vec::@vaxd() : () -> ()
  return
}

// -----

// A launch into a module that does not exist is caught while typing, not at
// LLVM translation.
func.func @unresolved(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @cpu::@grid: there is no module @cpu in scope; launches name a nested builtin.module tagged catalyst.target (or dispatched with catalyst.dispatch)}}
  catalyst.launch_kernel @cpu::@grid(%x) : (memref<4xf64>) -> ()
  return
}

// -----

// A module that is neither a target nor dispatched is lowered with the host,
// so a launch into it could never run.
module {
  module @gpu {
    func.func @vadd() {
      return
    }
  }
  func.func @plain_module() {
    // expected-error @+1 {{'catalyst.launch_kernel' op callee @gpu::@vadd: module @gpu is neither a catalyst.target nor dispatched, so nothing compiles it for a launch; add catalyst.target = {} to it (or catalyst.dispatch with catalyst.object_file for an object compiled elsewhere)}}
    catalyst.launch_kernel @gpu::@vadd() : () -> ()
    return
  }
}

// -----

// Catalyst's cross-compile-targets leaves a dispatched module with
// catalyst.dispatch and catalyst.object_file only: launches into it verify.
module {
  module @compiled attributes {catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/tmp/compiled.o"} {
    func.func @entry() {
      return
    }
  }
  func.func @dispatched_without_target() {
    catalyst.launch_kernel @compiled::@entry() : () -> ()
    // expected-error @+1 {{'catalyst.launch_kernel' op callee @compiled::@nope: module @compiled has no function @nope}}
    catalyst.launch_kernel @compiled::@nope() : () -> ()
    return
  }
}

// -----

module @mod attributes {catalyst.target = {}} {
  memref.global "private" @table : memref<4xf64> = dense<0.0>
}
func.func @not_a_func() {
  // expected-error @+1 {{'catalyst.launch_kernel' op callee @mod::@table is a 'memref.global', not a func.func}}
  catalyst.launch_kernel @mod::@table() : () -> ()
  return
}

// -----

module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) -> memref<4xf64> {
    return %x : memref<4xf64>
  }
}
func.func @operand_shape_mismatch(%x: memref<8xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op operand types ('memref<8xf64>') do not match the inputs ('memref<4xf64>') of @mod::@entry}}
  %r = catalyst.launch_kernel @mod::@entry(%x) : (memref<8xf64>) -> memref<4xf64>
  return
}

// -----

module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>, %y: memref<4xf64>) {
    return
  }
}
func.func @operand_count_mismatch(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op operand types ('memref<4xf64>') do not match the inputs ('memref<4xf64>', 'memref<4xf64>') of @mod::@entry}}
  catalyst.launch_kernel @mod::@entry(%x) : (memref<4xf64>) -> ()
  return
}

// -----

module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) {
    return
  }
}
func.func @tensor_element_type_mismatch(%t: tensor<4xf32>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op operand types ('tensor<4xf32>') do not match the inputs ('memref<4xf64>') of @mod::@entry}}
  catalyst.launch_kernel @mod::@entry(%t) : (tensor<4xf32>) -> ()
  return
}

// -----

module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) {
    return
  }
}
func.func @unranked_tensor_mismatch(%t: tensor<*xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op operand types ('tensor<*xf64>') do not match the inputs ('memref<4xf64>') of @mod::@entry}}
  catalyst.launch_kernel @mod::@entry(%t) : (tensor<*xf64>) -> ()
  return
}

// -----

module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) -> memref<4xf64> {
    return %x : memref<4xf64>
  }
}
func.func @result_mismatch(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op result types ('memref<4xf32>') do not match the results ('memref<4xf64>') of @mod::@entry}}
  %r = catalyst.launch_kernel @mod::@entry(%x) : (memref<4xf64>) -> memref<4xf32>
  return
}

// -----

module @mod attributes {catalyst.target = {}} {
  func.func @entry(%x: memref<4xf64>) -> memref<4xf64> {
    return %x : memref<4xf64>
  }
}
func.func @result_missing(%x: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.launch_kernel' op result types () do not match the results ('memref<4xf64>') of @mod::@entry}}
  catalyst.launch_kernel @mod::@entry(%x) : (memref<4xf64>) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// catalyst.runtime_call
//===----------------------------------------------------------------------===//

func.func @empty_callee() {
  // expected-error @+1 {{'catalyst.runtime_call' op callee is empty; name the C function to call}}
  catalyst.runtime_call ""() {c_params = []} : () -> ()
  return
}

// -----

func.func @unknown_param_kind(%x: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op c_params[0] = "i128" is not a parameter kind; use i1, i8, i16, i32, i64, f16, f32, f64, ptr, str or out}}
  catalyst.runtime_call "f"(%x) {c_params = ["i128"]} : (i64) -> ()
  return
}

// -----

func.func @param_without_operand(%x: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op c_params[2] = "f64" has no operand: 1 operand(s) for the non-str parameters}}
  catalyst.runtime_call "f"(%x) {c_params = ["i64", "str", "f64"], c_strings = ["s"]} : (i64) -> ()
  return
}

// -----

func.func @int_for_float(%x: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'i64' does not fit c_params[0] = "f64"}}
  catalyst.runtime_call "f"(%x) {c_params = ["f64"]} : (i64) -> ()
  return
}

// -----

func.func @float_for_int(%x: f32) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'f32' does not fit c_params[1] = "i32"}}
  catalyst.runtime_call "f"(%x) {c_params = ["str", "i32"], c_strings = ["s"]} : (f32) -> ()
  return
}

// -----

func.func @tensor_for_scalar(%t: tensor<4xi64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'tensor<4xi64>' does not fit c_params[0] = "i64"}}
  catalyst.runtime_call "f"(%t) {c_params = ["i64"]} : (tensor<4xi64>) -> ()
  return
}

// -----

func.func @signed_int_for_scalar(%x: si32) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'si32' does not fit c_params[0] = "i32"}}
  catalyst.runtime_call "f"(%x) {c_params = ["i32"]} : (si32) -> ()
  return
}

// -----

func.func @bad_ptr(%x: i32) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'i32' does not fit c_params[0] = "ptr"; pass an i64, index or !llvm.ptr}}
  catalyst.runtime_call "f"(%x) {c_params = ["ptr"]} : (i32) -> ()
  return
}

// -----

func.func @memref_for_out(%m: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'memref<4xf64>' for c_params[0] = "out" must be a statically shaped ranked tensor (the shape of the buffer the callee fills)}}
  catalyst.runtime_call "f"(%m) {c_params = ["out"]} : (memref<4xf64>) -> ()
  return
}

// -----

func.func @dynamic_out(%t: tensor<?xf64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op operand #0 of type 'tensor<?xf64>' for c_params[0] = "out" must be a statically shaped ranked tensor}}
  %r = catalyst.runtime_call "f"(%t) {c_params = ["out"]} : (tensor<?xf64>) -> tensor<?xf64>
  return
}

// -----

func.func @extra_operand(%x: i64, %y: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op has 2 operands but c_params consumes 1; every operand needs a parameter}}
  catalyst.runtime_call "f"(%x, %y) {c_params = ["i64"]} : (i64, i64) -> ()
  return
}

// -----

func.func @missing_strings() {
  // expected-error @+1 {{'catalyst.runtime_call' op c_params has 1 "str" parameter(s) but c_strings has 0}}
  catalyst.runtime_call "f"() {c_params = ["str"]} : () -> ()
  return
}

// -----

func.func @extra_strings() {
  // expected-error @+1 {{'catalyst.runtime_call' op c_params has 1 "str" parameter(s) but c_strings has 2}}
  catalyst.runtime_call "f"() {c_params = ["str"], c_strings = ["a", "b"]} : () -> ()
  return
}

// -----

func.func @out_without_result(%t: tensor<4xf64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op has 0 results; expected 1 or 2 (the optional C result, then one per "out" parameter)}}
  catalyst.runtime_call "f"(%t) {c_params = ["out"]} : (tensor<4xf64>) -> ()
  return
}

// -----

func.func @too_many_results() {
  // expected-error @+1 {{'catalyst.runtime_call' op has 2 results; expected 0 or 1 (the optional C result, then one per "out" parameter)}}
  %a, %b = catalyst.runtime_call "f"() {c_params = []} : () -> (i32, i32)
  return
}

// -----

func.func @tensor_declared_result() {
  // expected-error @+1 {{'catalyst.runtime_call' op declared result of type 'tensor<4xf64>' must be a scalar integer or float}}
  %r = catalyst.runtime_call "f"() {c_params = []} : () -> tensor<4xf64>
  return
}

// -----

func.func @out_result_mismatch(%t: tensor<4xf64>) {
  // expected-error @+1 {{'catalyst.runtime_call' op result #1 of type 'tensor<8xf64>' must match its "out" operand type 'tensor<4xf64>'}}
  %n, %r = catalyst.runtime_call "f"(%t) {c_params = ["out"]} : (tensor<4xf64>) -> (i32, tensor<8xf64>)
  return
}

// -----

func.func @bad_dispatch_address() {
  // expected-error @+1 {{'catalyst.runtime_call' op dispatch address "localhost" has no port; write it as host:port (or write "" for the program's single executor)}}
  catalyst.runtime_call "f"() {c_params = [], dispatch = "localhost"} : () -> ()
  return
}

// -----

func.func @bad_dispatch_port() {
  // expected-error @+1 {{'catalyst.runtime_call' op dispatch address "127.0.0.1:99999" has port 99999 outside [0, 65535] (or write "" for the program's single executor)}}
  catalyst.runtime_call "f"() {c_params = [], dispatch = "127.0.0.1:99999"} : () -> ()
  return
}

// -----

func.func @missing_c_params() {
  // expected-error @+1 {{'catalyst.runtime_call' op requires attribute 'c_params'}}
  catalyst.runtime_call "f"() : () -> ()
  return
}

// -----

func.func @c_params_not_strings(%x: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op attribute 'c_params' failed to satisfy constraint: string array attribute}}
  catalyst.runtime_call "f"(%x) {c_params = [1]} : (i64) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// catalyst.target
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'func.func' op carries 'catalyst.target', which belongs on a nested builtin.module only}}
func.func @f() attributes {catalyst.target = {}} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.target' must be a dictionary {triple = "...", pipeline = "...", debug = true} (all optional) or a unit attribute}}
module @m attributes {catalyst.target = "x86_64-unknown-linux-gnu"} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.target' has unknown key 'cpu'; the keys are 'triple', 'pipeline' and 'debug'}}
module @m attributes {catalyst.target = {cpu = "skylake"}} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.target' key 'debug' must be true or false (true compiles the target with debug info)}}
module @m attributes {catalyst.target = {debug = "yes"}} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.target' key 'triple' must be a string}}
module @m attributes {catalyst.target = {triple = 1}} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.target' key 'pipeline' must be a string}}
module @m attributes {catalyst.target = {pipeline = ["canonicalize"]}} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.target' key 'triple' is empty; leave it out to use the default}}
module @m attributes {catalyst.target = {triple = ""}} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.target' key 'pipeline' is empty; leave it out to use the default}}
module @m attributes {catalyst.target = {triple = "x86_64-unknown-linux-gnu", pipeline = ""}} {
}

// -----

//===----------------------------------------------------------------------===//
// catalyst.dispatch
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'func.func' op carries 'catalyst.dispatch', which belongs on a nested builtin.module only}}
func.func @f() attributes {catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.dispatch' must be a dictionary with a string 'address', e.g.}}
module @m attributes {catalyst.target = {}, catalyst.dispatch = "127.0.0.1:4711"} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.dispatch' must be a dictionary with a string 'address'}}
module @m attributes {catalyst.target = {}, catalyst.dispatch = {}} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.dispatch' must be a dictionary with a string 'address'}}
module @m attributes {catalyst.target = {}, catalyst.dispatch = {address = 4711}} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.dispatch' address "" is empty; write it as host:port}}
module @m attributes {catalyst.target = {}, catalyst.dispatch = {address = ""}} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.dispatch' address "::1:4711" has an IPv6 host without brackets; write it as [host]:port}}
module @m attributes {catalyst.target = {}, catalyst.dispatch = {address = "::1:4711"}} {
}

// -----

// A URL: its scheme is the problem, not an IPv6 host (issue 40).
// expected-error @+1 {{'builtin.module' op 'catalyst.dispatch' address "http://127.0.0.1:7000" has the scheme 'http://', which is not one the executor speaks; write it as HOST:PORT, [IPv6]:PORT or unix:PATH, e.g. "127.0.0.1:7000"}}
module @m attributes {catalyst.target = {}, catalyst.dispatch = {address = "http://127.0.0.1:7000"}} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.dispatch' address "127.0.0.1:70000" has port 70000 outside [0, 65535]}}
module @m attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:70000"}} {
}

// -----

module {
  // expected-error @+1 {{'func.func' op carries 'catalyst.object_file', which belongs on a nested builtin.module only}}
  func.func @f() attributes {catalyst.object_file = "/tmp/f.o"} {
    return
  }
}

// -----

//===----------------------------------------------------------------------===//
// catalyst.object_file / catalyst.object_files
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'builtin.module' op 'catalyst.object_file' must be a string (the object's path)}}
module @m attributes {catalyst.target = {}, catalyst.object_file = 1} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.object_files' must be an array of strings}}
module attributes {catalyst.object_files = "/tmp/a.o"} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'catalyst.object_files' must be an array of strings}}
module attributes {catalyst.object_files = ["/tmp/a.o", 1]} {
}

// -----

//===----------------------------------------------------------------------===//
// catalyst.nonblocking
//===----------------------------------------------------------------------===//

module @mod attributes {catalyst.target = {}} {
  func.func @warmup() {
    return
  }
}
func.func @nonblocking_not_unit() {
  // expected-error @+1 {{'catalyst.launch_kernel' op 'catalyst.nonblocking' must be a unit attribute}}
  catalyst.launch_kernel @mod::@warmup() {catalyst.nonblocking = true} : () -> ()
  return
}

// -----

func.func @callee() {
  return
}
func.func @nonblocking_on_call() {
  // expected-error @+1 {{'func.call' op carries 'catalyst.nonblocking', which belongs on a catalyst.launch_kernel only}}
  func.call @callee() {catalyst.nonblocking} : () -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// catalyst.custom_call
//===----------------------------------------------------------------------===//

func.func @custom_call_empty_name() {
  // expected-error @+1 {{'catalyst.custom_call' op call_target_name is empty; name the function to call}}
  catalyst.custom_call fn("") () : () -> ()
  return
}

// -----

func.func @custom_call_too_many_inputs(%m: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.custom_call' op number_original_arg = 2 must lie in [0, 1] (the number of operands)}}
  catalyst.custom_call fn("f") (%m) {number_original_arg = 2 : i32} : (memref<4xf64>) -> ()
  return
}

// -----

func.func @custom_call_negative_inputs(%m: memref<4xf64>) {
  // expected-error @+1 {{'catalyst.custom_call' op number_original_arg = -1 must lie in [0, 1]}}
  catalyst.custom_call fn("f") (%m) {number_original_arg = -1 : i32} : (memref<4xf64>) -> ()
  return
}

// -----

func.func @custom_call_dispatch_not_a_string() {
  // expected-error @+1 {{'catalyst.custom_call' op backend_config dispatch must be a string, "host:port" or "" for the program's only executor, not 4711 : i64}}
  catalyst.custom_call fn("f") () {backend_config = {dispatch = 4711}} : () -> ()
  return
}

// -----

func.func @custom_call_dispatch_no_port() {
  // expected-error @+1 {{'catalyst.custom_call' op backend_config dispatch address "localhost" has no port; write it as host:port (or write "" for the program's single executor)}}
  catalyst.custom_call fn("f") () {backend_config = {dispatch = "localhost"}} : () -> ()
  return
}

// -----

func.func @custom_call_backend_config_not_a_dictionary() {
  // expected-error @+1 {{'catalyst.custom_call' op attribute 'backend_config' failed to satisfy constraint: dictionary of named attribute values}}
  catalyst.custom_call fn("f") () {backend_config = "dispatch"} : () -> ()
  return
}
