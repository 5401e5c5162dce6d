// A dispatched kernel with what a launch from the editor carries besides
// static f64 memrefs: a memref of dynamic size of i16 and an i1 scalar; a
// bf16 memref and an f16 scalar.
module @host {
  func.func @main(%x: memref<?xi16>, %neg: i1) -> memref<?xi16> {
    %y = catalyst.launch_kernel @dyn::@twice(%x, %neg) : (memref<?xi16>, i1) -> memref<?xi16>
    return %y : memref<?xi16>
  }
  func.func @halves(%x: memref<4xbf16>, %s: f16) -> memref<4xf16> {
    %y = catalyst.launch_kernel @dyn::@halve(%x, %s) : (memref<4xbf16>, f16) -> memref<4xf16>
    return %y : memref<4xf16>
  }
  module @dyn attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    // y[i] = 2 * x[i], negated when %neg.
    func.func @twice(%x: memref<?xi16>, %neg: i1) -> memref<?xi16> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0 : i16
      %n = memref.dim %x, %c0 : memref<?xi16>
      %y = memref.alloc(%n) : memref<?xi16>
      scf.for %i = %c0 to %n step %c1 {
        %v = memref.load %x[%i] : memref<?xi16>
        %d = arith.addi %v, %v : i16
        %m = arith.subi %zero, %d : i16
        %r = arith.select %neg, %m, %d : i16
        memref.store %r, %y[%i] : memref<?xi16>
      }
      return %y : memref<?xi16>
    }
    // y[i] = f16(x[i]) * s.
    func.func @halve(%x: memref<4xbf16>, %s: f16) -> memref<4xf16> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : memref<4xf16>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xbf16>
        %w = arith.extf %v : bf16 to f32
        %h = arith.truncf %w : f32 to f16
        %r = arith.mulf %h, %s : f16
        memref.store %r, %y[%i] : memref<4xf16>
      }
      return %y : memref<4xf16>
    }
  }
}
