// A workspace that cannot be written. (Permissions are not used: the tests
// may run as root.)
//
// Under /proc nothing can be created.
// RUN: not executor-opt %s --cross-compile-targets="workspace=/proc/forbidden" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PROC
//
// Under a regular file.
// RUN: rm -rf %t && mkdir -p %t && touch %t/file
// RUN: not executor-opt %s --cross-compile-targets="workspace=%t/file/ws" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FILE
//
// The object's path is taken by a directory.
// RUN: rm -rf %t && mkdir -p %t/t/t.o
// RUN: not executor-opt %s --cross-compile-targets="workspace=%t" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OBJECT
//
// The manifest's path is taken by a directory.
// RUN: rm -rf %t && mkdir -p %t/prog.objects
// RUN: not executor-opt %s --cross-compile-targets="workspace=%t" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MANIFEST

// PROC: error: 'builtin.module' op cannot create workspace /proc/forbidden: {{.+}} (is the workspace writable?)
// FILE: error: 'builtin.module' op cannot create workspace {{.*}}/file/ws: Not a directory (is the workspace writable?)
// OBJECT: error: 'builtin.module' op cannot write {{.*}}/t/t.o: Is a directory (is the workspace writable?)
// MANIFEST: error: 'builtin.module' op cannot write {{.*}}/prog.objects: Is a directory

module @prog {
  func.func @main() {
    catalyst.launch_kernel @t::@f() : () -> ()
    return
  }
  module @t attributes {catalyst.target} {
    func.func @f() {
      return
    }
  }
}
