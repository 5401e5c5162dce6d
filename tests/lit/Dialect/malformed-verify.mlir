// Parse errors of malformed executor and catalyst IR, checked with
// -verify-diagnostics: each error is expected on the line it names.
//
// RUN: executor-opt %s -split-input-file -verify-diagnostics

func.func @unknown_op(%s: !executor.session) {
  // expected-error @+1 {{custom op 'executor.open_session' is unknown}}
  %t = executor.open_session("127.0.0.1:4711") : !executor.session
  return
}

// -----

// expected-error @+1 {{unknown  type `handle` in dialect `executor`}}
func.func @unknown_type(%s: !executor.handle) {
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @wrong_operand_type(%s: !executor.session, %x: memref<4xf64>) {
  // expected-error @+1 {{use of value '%s' expects different type than prior uses: '!executor.token' vs '!executor.session'}}
  executor.await %s : !executor.token
  return
}

// -----

func.func @missing_binary_path(%s: !executor.session) {
  // expected-error @+1 {{expected attribute value}}
  executor.send_binary %s() : !executor.session
  return
}

// -----

func.func @missing_inputs(%s: !executor.session) {
  // expected-error @+1 {{expected '('}}
  executor.launch %s("square", "/tmp/a.o") : !executor.session, () -> ()
  return
}

// -----

func.func @string_callee() {
  // expected-error @+1 {{invalid kind of attribute specified}}
  catalyst.launch_kernel "compute::square"() : () -> ()
  return
}

// -----

func.func @missing_symbol(%s: !executor.session) {
  // expected-error @+1 {{'executor.call' op requires attribute 'symbol'}}
  "executor.call"(%s) : (!executor.session) -> ()
  return
}

// -----

func.func @missing_callee() {
  // expected-error @+1 {{'catalyst.launch_kernel' op requires attribute 'callee'}}
  "catalyst.launch_kernel"() : () -> ()
  return
}
