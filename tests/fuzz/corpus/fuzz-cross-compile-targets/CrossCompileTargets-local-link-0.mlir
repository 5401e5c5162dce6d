// Local targets: every launch becomes a func.call of one private declaration
// (a matching host declaration is reused), objects are appended to the
// root's catalyst.object_files and to {workspace}/{root}.objects in order.
//

// New declarations go first; the existing one is kept and not duplicated.

// MANIFEST: {{^}}[[WS]]/first/first.o{{$}}
// MANIFEST-NEXT: {{^}}[[WS]]/second/second.o{{$}}
// MANIFEST-NOT: {{.}}

module @prog attributes {catalyst.object_files = ["/prebuilt/runtime.o"]} {
  func.func private @inc(memref<4xf64>) -> memref<4xf64>
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %a = catalyst.launch_kernel @first::@inc(%x) : (memref<4xf64>) -> memref<4xf64>
    %b = catalyst.launch_kernel @first::@inc(%a) : (memref<4xf64>) -> memref<4xf64>
    %c = catalyst.launch_kernel @second::@dec(%b) : (memref<4xf64>) -> memref<4xf64>
    return %c : memref<4xf64>
  }
  func.func @other(%x: memref<4xf64>) -> memref<4xf64> {
    %c = catalyst.launch_kernel @second::@dec(%x) : (memref<4xf64>) -> memref<4xf64>
    return %c : memref<4xf64>
  }
  module @first attributes {catalyst.target} {
    func.func @inc(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
  module @second attributes {catalyst.target = {}} {
    func.func @dec(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
}
