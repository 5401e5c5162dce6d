// Every error the executor verifiers emit, one per chunk.
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// executor.open: the address
//===----------------------------------------------------------------------===//

func.func @empty_address() {
  // expected-error @+1 {{'executor.open' op address "" is empty; write it as host:port, e.g. "127.0.0.1:4711"}}
  %s = executor.open("") : !executor.session
  return
}

// -----

func.func @white_space() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1: 4711" contains white space; write it as host:port}}
  %s = executor.open("127.0.0.1: 4711") : !executor.session
  return
}

// -----

func.func @no_port() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1" has no port; write it as host:port}}
  %s = executor.open("127.0.0.1") : !executor.session
  return
}

// -----

func.func @empty_port() {
  // expected-error @+1 {{'executor.open' op address "localhost:" has an empty port; write it as host:port}}
  %s = executor.open("localhost:") : !executor.session
  return
}

// -----

func.func @port_out_of_range() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1:70000" has port 70000 outside [0, 65535]}}
  %s = executor.open("127.0.0.1:70000") : !executor.session
  return
}

// -----

func.func @port_overflows() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1:123456789012345678901234567890" has port 123456789012345678901234567890 outside [0, 65535]}}
  %s = executor.open("127.0.0.1:123456789012345678901234567890") : !executor.session
  return
}

// -----

func.func @port_bad_chars() {
  // expected-error @+1 {{'executor.open' op address "127.0.0.1:47a1" has port '47a1', which is neither a number nor a placeholder name}}
  %s = executor.open("127.0.0.1:47a1") : !executor.session
  return
}

// -----

func.func @placeholder_bad_chars() {
  // expected-error @+1 {{'executor.open' op address "ADDR:PO-RT" has port 'PO-RT', which is neither a number nor a placeholder name}}
  %s = executor.open("ADDR:PO-RT") : !executor.session
  return
}

// -----

func.func @ipv6_without_brackets() {
  // expected-error @+1 {{'executor.open' op address "::1:4711" has an IPv6 host without brackets; write it as [host]:port}}
  %s = executor.open("::1:4711") : !executor.session
  return
}

// -----

func.func @ipv6_unclosed_bracket() {
  // expected-error @+1 {{'executor.open' op address "[::1:4711" opens an IPv6 host with '[' but has no ']'; write it as [::1]:port}}
  %s = executor.open("[::1:4711") : !executor.session
  return
}

// -----

func.func @ipv6_no_port() {
  // expected-error @+1 {{'executor.open' op address "[::1]4711" has no ':port' after the bracketed IPv6 host}}
  %s = executor.open("[::1]4711") : !executor.session
  return
}

// -----

func.func @ipv6_empty_port() {
  // expected-error @+1 {{'executor.open' op address "[::1]:" has an empty port; write it as host:port}}
  %s = executor.open("[::1]:") : !executor.session
  return
}

// -----

func.func @unix_without_path() {
  // expected-error @+1 {{'executor.open' op address "unix:" has no socket path; write it as unix:PATH, e.g. "unix:/run/user/1000/executor.sock"}}
  %s = executor.open("unix:") : !executor.session
  return
}

// -----

func.func @empty_host() {
  // expected-error @+1 {{'executor.open' op address ":4711" has an empty host; write it as host:port}}
  %s = executor.open(":4711") : !executor.session
  return
}

// -----

func.func @empty_bracketed_host() {
  // expected-error @+1 {{'executor.open' op address "[]:4711" has an empty host; write it as host:port}}
  %s = executor.open("[]:4711") : !executor.session
  return
}

// -----

//===----------------------------------------------------------------------===//
// executor.send_binary
//===----------------------------------------------------------------------===//

func.func @empty_binary_path(%s: !executor.session) {
  // expected-error @+1 {{'executor.send_binary' op binary_path is empty; give the path of the object file to ship (cross-compile-targets records it as catalyst.object_file)}}
  executor.send_binary %s("") : !executor.session
  return
}

// -----

func.func @reserved_format(%s: !executor.session) {
  // expected-error @+1 {{'executor.send_binary' op format 1 is reserved; only 0 (the raw object file) is supported}}
  executor.send_binary %s("/tmp/a.o") {format = 1 : i32} : !executor.session
  return
}

// -----

// A negative format is reserved too (the message shows it as unsigned).
func.func @negative_format(%s: !executor.session) {
  // expected-error @+1 {{is reserved; only 0 (the raw object file) is supported}}
  executor.send_binary %s("/tmp/a.o") {format = -1 : i32} : !executor.session
  return
}

// -----

func.func @format_i64(%s: !executor.session) {
  // expected-error @+1 {{'executor.send_binary' op attribute 'format' failed to satisfy constraint: 32-bit signless integer attribute}}
  executor.send_binary %s("/tmp/a.o") {format = 0 : i64} : !executor.session
  return
}

// -----

//===----------------------------------------------------------------------===//
// executor.launch / executor.launch_async
//===----------------------------------------------------------------------===//

func.func @launch_empty_callee(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch' op kernel_callee is empty; name the entry function of the target module}}
  executor.launch %s("", "/tmp/a.o")() : !executor.session, () -> ()
  return
}

// -----

func.func @launch_empty_object(%s: !executor.session, %x: memref<4xf64>) {
  // expected-error @+1 {{'executor.launch' op object is empty; give the path of the object file shipped with executor.send_binary}}
  executor.launch %s("square", "")(%x) : !executor.session, (memref<4xf64>) -> ()
  return
}

// -----

// Scalars the C ABI does not carry by pointer (issue 40).
func.func @launch_complex_operand(%s: !executor.session, %z: complex<f64>) {
  // expected-error @+1 {{'executor.launch' op operand #1 must be variadic of memref of any type or scalar (i1, i8, i16, i32, i64, index, f16, bf16, f32 or f64), but got 'complex<f64>'}}
  executor.launch %s("k", "/tmp/a.o")(%z) : !executor.session, (complex<f64>) -> ()
  return
}

// -----

func.func @launch_async_empty_callee(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch_async' op kernel_callee is empty; name the entry function of the target module}}
  %t = executor.launch_async %s("", "/tmp/a.o") : !executor.session -> !executor.token
  return
}

// -----

func.func @launch_async_empty_object(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch_async' op object is empty; give the path of the object file shipped with executor.send_binary}}
  %t = executor.launch_async %s("warmup", "") : !executor.session -> !executor.token
  return
}

// -----

//===----------------------------------------------------------------------===//
// executor.call
//===----------------------------------------------------------------------===//

func.func @call_empty_symbol(%s: !executor.session, %a: tensor<4xf64>) {
  // expected-error @+1 {{'executor.call' op symbol is empty; name the function to invoke on the executor}}
  executor.call %s("")(%a) : !executor.session, (tensor<4xf64>) -> ()
  return
}

// -----

func.func @call_negative_num_input_args(%s: !executor.session, %a: memref<4xf64>) {
  // expected-error @+1 {{'executor.call' op num_input_args = -1 must lie in [0, 1] (the number of operands)}}
  executor.call %s("f")(%a) {num_input_args = -1 : i32} : !executor.session, (memref<4xf64>) -> ()
  return
}

// -----

func.func @call_too_many_input_args(%s: !executor.session, %a: memref<4xf64>, %b: memref<4xf64>) {
  // expected-error @+1 {{'executor.call' op num_input_args = 3 must lie in [0, 2] (the number of operands)}}
  executor.call %s("f")(%a, %b) {num_input_args = 3 : i32} : !executor.session, (memref<4xf64>, memref<4xf64>) -> ()
  return
}

// -----

// A tensor output is destination-passing style: it needs its result.
func.func @call_tensor_output(%s: !executor.session, %a: memref<4xf64>, %b: tensor<4xf64>) {
  // expected-error @+1 {{'executor.call' op has 1 tensor output operand(s) after num_input_args but 0 result(s); each tensor output needs a result of its type (the filled value, as in destination-passing style)}}
  executor.call %s("f")(%a, %b) {num_input_args = 1 : i32} : !executor.session, (memref<4xf64>, tensor<4xf64>) -> ()
  return
}

// -----

func.func @call_tensor_output_wrong_result(%s: !executor.session, %a: memref<4xf64>, %b: memref<4xf64>, %c: tensor<2xi32>) {
  // expected-error @+1 {{'executor.call' op result #0 of type 'tensor<2xi64>' does not match its tensor output operand of type 'tensor<2xi32>' (tensor outputs and their results pair up in order)}}
  %r = executor.call %s("f")(%a, %b, %c) {num_input_args = 1 : i32} : !executor.session, (memref<4xf64>, memref<4xf64>, tensor<2xi32>) -> tensor<2xi64>
  return
}

// -----

func.func @call_tensor_outputs_swapped(%s: !executor.session, %a: tensor<4xf64>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'executor.call' op result #0 of type 'tensor<2xi32>' does not match its tensor output operand of type 'tensor<4xf64>'}}
  %r:2 = executor.call %s("f")(%a, %b) {num_input_args = 0 : i32} : !executor.session, (tensor<4xf64>, tensor<2xi32>) -> (tensor<2xi32>, tensor<4xf64>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// Operand and result types (ODS constraints)
//===----------------------------------------------------------------------===//

func.func @launch_tensor_input(%s: !executor.session, %t: tensor<4xf64>) {
  // expected-error @+1 {{'executor.launch' op operand #1 must be variadic of memref of any type or scalar (i1, i8, i16, i32, i64, index, f16, bf16, f32 or f64), but got 'tensor<4xf64>'}}
  executor.launch %s("square", "/tmp/a.o")(%t) : !executor.session, (tensor<4xf64>) -> ()
  return
}

// -----

func.func @launch_tensor_result(%s: !executor.session, %x: memref<4xf64>) {
  // expected-error @+1 {{'executor.launch' op result #0 must be variadic of memref of any type or scalar (i1, i8, i16, i32, i64, index, f16, bf16, f32 or f64), but got 'tensor<4xf64>'}}
  %r = executor.launch %s("square", "/tmp/a.o")(%x) : !executor.session, (memref<4xf64>) -> tensor<4xf64>
  return
}

// -----

func.func @call_memref_result(%s: !executor.session, %a: tensor<4xf64>) {
  // expected-error @+1 {{'executor.call' op result #0 must be variadic of ranked tensor of any type values, but got 'memref<4xf64>'}}
  %r = executor.call %s("f")(%a) : !executor.session, (tensor<4xf64>) -> memref<4xf64>
  return
}

// -----

func.func @call_unranked_tensor(%s: !executor.session, %a: tensor<*xf64>) {
  // expected-error @+1 {{'executor.call' op operand #1 must be variadic of ranked tensor of any type values or memref of any type values, but got 'tensor<*xf64>'}}
  executor.call %s("f")(%a) : !executor.session, (tensor<*xf64>) -> ()
  return
}

// -----

func.func @call_scalar_operand(%s: !executor.session, %a: f64) {
  // expected-error @+1 {{'executor.call' op operand #1 must be variadic of ranked tensor of any type values or memref of any type values, but got 'f64'}}
  executor.call %s("f")(%a) : !executor.session, (f64) -> ()
  return
}

// -----

func.func @await_session(%s: !executor.session) {
  // expected-error @+1 {{'executor.await' op operand #0 must be A handle to one launch that has not finished yet., but got '!executor.session'}}
  "executor.await"(%s) : (!executor.session) -> ()
  return
}

// -----

func.func @close_token(%t: !executor.token) {
  // expected-error @+1 {{'executor.close' op operand #0 must be A handle to an open executor session., but got '!executor.token'}}
  "executor.close"(%t) : (!executor.token) -> ()
  return
}

// -----

func.func @i32_session(%c: i32) {
  // expected-error @+1 {{'executor.send_binary' op operand #0 must be A handle to an open executor session., but got 'i32'}}
  "executor.send_binary"(%c) <{binary_path = "/tmp/a.o"}> : (i32) -> ()
  return
}

// -----

// In the custom form the type of the session operand is checked while
// parsing.
func.func @i32_session_custom(%c: i32) {
  // expected-error @+1 {{custom op 'executor.close' invalid kind of type specified: expected executor.session, but found 'i32'}}
  executor.close %c : i32
  return
}

// -----

func.func @open_returns_i64() {
  // expected-error @+1 {{'executor.open' op result #0 must be A handle to an open executor session., but got 'i64'}}
  %s = "executor.open"() <{address = "127.0.0.1:4711"}> : () -> i64
  return
}

// -----

func.func @launch_async_returns_session(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch_async' op result #0 must be A handle to one launch that has not finished yet., but got '!executor.session'}}
  %t = "executor.launch_async"(%s) <{kernel_callee = "k", object = "/tmp/a.o"}> : (!executor.session) -> !executor.session
  return
}

// -----

//===----------------------------------------------------------------------===//
// Missing or mistyped inherent attributes (generic form)
//===----------------------------------------------------------------------===//

func.func @open_missing_address() {
  // expected-error @+1 {{'executor.open' op requires attribute 'address'}}
  %s = "executor.open"() : () -> !executor.session
  return
}

// -----

func.func @launch_missing_object(%s: !executor.session) {
  // expected-error @+1 {{'executor.launch' op requires attribute 'object'}}
  "executor.launch"(%s) <{kernel_callee = "k"}> : (!executor.session) -> ()
  return
}

// -----

func.func @call_num_input_args_i64(%s: !executor.session, %a: memref<4xf64>) {
  // expected-error @+1 {{'executor.call' op attribute 'num_input_args' failed to satisfy constraint: 32-bit signless integer attribute}}
  "executor.call"(%s, %a) <{symbol = "f", num_input_args = 1 : i64}> : (!executor.session, memref<4xf64>) -> ()
  return
}
