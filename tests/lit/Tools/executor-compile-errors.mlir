// executor-compile names the failing pass and the op, at its line.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: not executor-compile %s -o %t/prog 2>&1 | FileCheck %s

module @host {
  func.func @main() {
    %n = arith.constant 3 : i128
    // CHECK: executor-compile-errors.mlir:[[@LINE+1]]:5: error: [dispatch-executor-targets] 'catalyst.launch_kernel' op operand of type 'i128' cannot be sent to an executor
    catalyst.launch_kernel @k::@f(%n) : (i128) -> ()
    return
  }
  module @k attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:1"}} {
    func.func @f(%n: i128) { return }
  }
}
// CHECK-NOT: see current operation
// CHECK: executor-compile: error: pass 'dispatch-executor-targets' failed (builtin.module @host)
