// Malformed input gets an error at its line and column, never a crash (`not`
// fails on a crash). Each chunk is parsed on its own and keeps the line
// numbers of this file.
//
// RUN: not executor-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not executor-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=NOCRASH
// NOCRASH-NOT: PLEASE submit a bug report
// NOCRASH-NOT: Stack dump

func.func @unknown_executor_op(%s: !executor.session) {
  executor.frobnicate %s : !executor.session
  return
}
// CHECK: malformed.mlir:11:3: error: custom op 'executor.frobnicate' is unknown

// -----

func.func @unknown_catalyst_op() {
  catalyst.launch() : () -> ()
  return
}
// CHECK: malformed.mlir:19:3: error: custom op 'catalyst.launch' is unknown

// -----

func.func @unknown_type(%s: !executor.sesion) {
  return
}
// CHECK: malformed.mlir:26:39: error: unknown  type `sesion` in dialect `executor`

// -----

func.func @unknown_dialect() {
  %x = quantum.alloc : i64
  return
}
// CHECK: malformed.mlir:34:8: error: Dialect `quantum' not found for custom op 'quantum.alloc'

// -----

func.func @token_as_session(%t: !executor.token) {
  executor.close %t : !executor.session
  return
}
// CHECK: malformed.mlir:42:18: error: use of value '%t' expects different type than prior uses: '!executor.session' vs '!executor.token'

// -----

func.func @memref_type_mismatch(%s: !executor.session, %x: memref<4xf64>) {
  %r = executor.launch %s("square", "/tmp/a.o")(%x) : !executor.session, (memref<8xf64>) -> memref<4xf64>
  return
}
// CHECK: malformed.mlir:50:49: error: use of value '%x' expects different type than prior uses: 'memref<8xf64>' vs 'memref<4xf64>'

// -----

func.func @undeclared_value() {
  executor.close %nope : !executor.session
  return
}
// CHECK: malformed.mlir:58:18: error: use of undeclared SSA value name

// -----

func.func @missing_address() {
  %s = executor.open() : !executor.session
  return
}
// CHECK: malformed.mlir:66:22: error: expected attribute value

// -----

func.func @integer_address() {
  %s = executor.open(4711) : !executor.session
  return
}
// CHECK: malformed.mlir:74:22: error: integer literal not valid for specified type

// -----

func.func @missing_object(%s: !executor.session) {
  executor.launch %s("square")() : !executor.session, () -> ()
  return
}
// CHECK: malformed.mlir:82:30: error: expected ','

// -----

func.func @missing_type(%s: !executor.session) {
  executor.close %s
  return
}
// CHECK: malformed.mlir:90:20: error: expected ':'

// -----

func.func @missing_token_type(%s: !executor.session) {
  %t = executor.launch_async %s("warmup", "/tmp/a.o") : !executor.session
  return
}
// CHECK: malformed.mlir:98:74: error: expected '->'

// -----

func.func @flat_string_callee() {
  catalyst.launch_kernel "mod::entry"() : () -> ()
  return
}
// CHECK: malformed.mlir:106:26: error: custom op 'catalyst.launch_kernel' invalid kind of attribute specified

// -----

func.func @runtime_call_missing_params() {
  catalyst.runtime_call "f"() : () -> ()
  return
}
// CHECK: malformed.mlir:114:3: error: 'catalyst.runtime_call' op requires attribute 'c_params'

// -----

// Truncated input: the error is where the input stops.
// CHECK: malformed.mlir:124:37: error: expected ')'
func.func @truncated_op(%s: !executor.session) {
  executor.send_binary %s("/tmp/a.o"

// -----

// CHECK: malformed.mlir:130:59: error: expected operation name in quotes
func.func @truncated_region() {
  %s = executor.open("127.0.0.1:4711") : !executor.session

// -----

// CHECK: malformed.mlir:135:77: error: expected '}' in attribute dictionary
module @m attributes {catalyst.target = {triple = "x86_64-unknown-linux-gnu"
