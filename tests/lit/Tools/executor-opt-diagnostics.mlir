// executor-opt prints a diagnostic with its location and source line, and no
// generic dump of the op (a whole target module, or the program) unless
// asked for with --mlir-print-op-on-diagnostic, as executor-compile and the
// language server.
//
// RUN: not executor-opt %s 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not executor-opt %s --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=ASKED

// SHORT: executor-opt-diagnostics.mlir:[[@LINE+5]]:5: error: 'catalyst.launch_kernel' op callee @nowhere::@f: there is no module @nowhere in scope
// SHORT-NOT: see current operation
// ASKED: see current operation
module {
  func.func @main() {
    catalyst.launch_kernel @nowhere::@f() : () -> ()
    return
  }
}
