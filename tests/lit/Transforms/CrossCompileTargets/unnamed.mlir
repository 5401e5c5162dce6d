// A target module without a name is `unnamed`: {workspace}/unnamed/unnamed.o.
// A root module without a name writes its manifest as module.objects.
//
// RUN: rm -rf %t
// RUN: executor-opt %s -split-input-file --cross-compile-targets="workspace=%t" | FileCheck %s
// RUN: llvm-readelf -h %t/unnamed/unnamed.o | FileCheck %s --check-prefix=ELF
// RUN: cat %t/module.objects | FileCheck %s --check-prefix=MANIFEST -DWS=%t

// A local one: erased, its object listed on the root.
// CHECK:       module attributes {catalyst.object_files = ["{{.*}}/unnamed/unnamed.o"]} {
// CHECK-NEXT:    func.func @main()
// CHECK-NOT:     catalyst.target
// CHECK:       // -----
module {
  func.func @main() {
    return
  }
  module attributes {catalyst.target} {
    func.func @f() {
      return
    }
  }
}

// -----

// A dispatched one: its object recorded on it; it has no entries (nothing can
// launch into a module without a name), so it is left empty.
// CHECK:       module {
// CHECK-NEXT:    module attributes {catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "{{.*}}/unnamed/unnamed.o", catalyst.target = {}} {
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module {
  module attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func @g() {
      return
    }
  }
}

// ELF: Type: REL (Relocatable file)

// MANIFEST: {{^}}[[WS]]/unnamed/unnamed.o{{$}}
// MANIFEST-NOT: {{.}}
