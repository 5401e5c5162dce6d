// Malformed input gets an error at its line and column, never a crash (`not`
// fails on a crash). Each chunk is parsed on its own and keeps the line
// numbers of this file.
//
// RUN: not executor-opt %s -split-input-file 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump

func.func @unknown_executor_op(%s: !executor.session) {
  executor.frobnicate %s : !executor.session
  return
}
// CHECK: malformed.mlir:10:3: error: custom op 'executor.frobnicate' is unknown

// -----

func.func @unknown_catalyst_op() {
  catalyst.launch() : () -> ()
  return
}
// CHECK: malformed.mlir:18:3: error: custom op 'catalyst.launch' is unknown

// -----

func.func @unknown_type(%s: !executor.sesion) {
  return
}
// CHECK: malformed.mlir:25:29: error:

// -----

func.func @unknown_dialect() {
  %x = quantum.alloc : i64
  return
}
// CHECK: malformed.mlir:33:8: error: Dialect `quantum' not found for custom op 'quantum.alloc'

// -----

func.func @token_as_session(%t: !executor.token) {
  executor.close %t : !executor.session
  return
}
// CHECK: malformed.mlir:41:18: error: use of value '%t' expects different type than prior uses: '!executor.session' vs '!executor.token'

// -----

func.func @memref_type_mismatch(%s: !executor.session, %x: memref<4xf64>) {
  %r = executor.launch %s("square", "/tmp/a.o")(%x) : !executor.session, (memref<8xf64>) -> memref<4xf64>
  return
}
// CHECK: malformed.mlir:49:49: error: use of value '%x' expects different type than prior uses: 'memref<8xf64>' vs 'memref<4xf64>'

// -----

func.func @undeclared_value() {
  executor.close %nope : !executor.session
  return
}
// CHECK: malformed.mlir:57:18: error: use of undeclared SSA value name

// -----

func.func @missing_address() {
  %s = executor.open() : !executor.session
  return
}
// CHECK: malformed.mlir:65:22: error: expected attribute value

// -----

func.func @integer_address() {
  %s = executor.open(4711) : !executor.session
  return
}
// CHECK: malformed.mlir:73:22: error:

// -----

func.func @missing_object(%s: !executor.session) {
  executor.launch %s("square")() : !executor.session, () -> ()
  return
}
// CHECK: malformed.mlir:81:30: error: expected ','

// -----

func.func @missing_type(%s: !executor.session) {
  executor.close %s
  return
}
// CHECK: malformed.mlir:89:3: error: expected ':'

// -----

func.func @missing_token_type(%s: !executor.session) {
  %t = executor.launch_async %s("warmup", "/tmp/a.o") : !executor.session
  return
}
// CHECK: malformed.mlir:97:3: error: expected '->'

// -----

func.func @flat_string_callee() {
  catalyst.launch_kernel "mod::entry"() : () -> ()
  return
}
// CHECK: malformed.mlir:105:26: error:

// -----

func.func @runtime_call_missing_params() {
  catalyst.runtime_call "f"() : () -> ()
  return
}
// CHECK: malformed.mlir:113:3: error: 'catalyst.runtime_call' op requires attribute 'c_params'

// -----

func.func @truncated_op(%s: !executor.session) {
  executor.send_binary %s("/tmp/a.o"
// CHECK: malformed.mlir:120:

// -----

func.func @truncated_region() {
  %s = executor.open("127.0.0.1:4711") : !executor.session
// CHECK: malformed.mlir:126:

// -----

module @m attributes {catalyst.target = {triple = "x86_64-unknown-linux-gnu"
// CHECK: malformed.mlir:131:
