// A dispatched module without catalyst.target: executor-compile ran
// cross-compile-targets, which compiles targets only, so the error names the
// fix (issue 40), not "run cross-compile-targets first".
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: not executor-compile %s -o %t/prog 2>&1 | FileCheck %s

module @host {
  func.func @main() {
    return
  }
  // CHECK: executor-compile-dispatch-without-target.mlir:[[@LINE+1]]:3: error: [dispatch-executor-targets] 'builtin.module' op is dispatched to 127.0.0.1:4711 but has no catalyst.object_file and is not a catalyst.target, which cross-compile-targets would compile; add catalyst.target = {} to @compute (or catalyst.object_file for an object compiled elsewhere)
  module @compute attributes {catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func @f() { return }
  }
}
// CHECK-NOT: run cross-compile-targets first
