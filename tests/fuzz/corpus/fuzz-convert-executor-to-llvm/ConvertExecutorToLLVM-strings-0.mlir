// Each distinct string is emitted once per module, however many ops (in
// however many functions) use it; the address, the object path and the
// pyface entry names are separate strings.
//

// Three opens of one address, one global.
// ONCE-COUNT-1: llvm.mlir.global private constant @{{.+}}("127.0.0.1:4711\00")
// ONCE-NOT:     ("127.0.0.1:4711\00")

// GLOBALS-DAG: {{^}}  llvm.mlir.global private constant @{{.+}}("10.0.0.2:5000\00")
// GLOBALS-DAG: {{^}}  llvm.mlir.global private constant @{{.+}}("/ws/a.o\00")
// GLOBALS-DAG: {{^}}  llvm.mlir.global private constant @{{.+}}("_catalyst_pyface_square\00")
// GLOBALS-DAG: {{^}}  llvm.mlir.global private constant @{{.+}}("square\00")
// GLOBALS-DAG: {{^}}  llvm.mlir.global private constant @{{.+}}("127.0.0.1:4711\00")

// The call's description, for its reply check.
// GLOBALS-DAG: {{^}}  llvm.mlir.global private constant @{{.+}}("executor.call(\22square\22) at {{.*}}strings.mlir:[[#@LINE+44]]:3\00")

// Five distinct strings of the ops, the call's description, the two
// messages of the reply check and the places of the launch and the await
// (for the runtime's error message): ten in all.

// Every use of a string takes the address of its one global.
// The symbol of a call is not prefixed: a string of its own.
func.func @first(%x: memref<4xf64>) -> memref<4xf64> {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  %t = executor.open("127.0.0.1:4711") : !executor.session
  executor.send_binary %s("/ws/a.o") : !executor.session
  %y = executor.launch %t("square", "/ws/a.o")(%x) : !executor.session, (memref<4xf64>) -> memref<4xf64>
  return %y : memref<4xf64>
}
func.func @second() {
  %s = executor.open("127.0.0.1:4711") : !executor.session
  %o = executor.open("10.0.0.2:5000") : !executor.session
  %t = executor.launch_async %s("square", "/ws/a.o") : !executor.session -> !executor.token
  executor.await %t : !executor.token
  executor.call %o("square")() {num_input_args = 0 : i32} : !executor.session, () -> ()
  return
}
