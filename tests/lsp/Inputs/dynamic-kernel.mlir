// A dispatched kernel with what a launch from the editor carries besides
// static f64 memrefs: a memref of dynamic size of i16 and an i1 scalar.
module @host {
  func.func @main(%x: memref<?xi16>, %neg: i1) -> memref<?xi16> {
    %y = catalyst.launch_kernel @dyn::@twice(%x, %neg) : (memref<?xi16>, i1) -> memref<?xi16>
    return %y : memref<?xi16>
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
  }
}
