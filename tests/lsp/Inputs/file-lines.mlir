// The lines of this file are not those of its printed chunks: a first
// chunk, comments, blank lines, a type alias and an op in generic form.
module @first {
  func.func @id(%x: i32) -> i32 {
    return %x : i32
  }
}

// -----

!vec = memref<4xf64>

module @prog {

  // The host: one launch.
  func.func @main(%x: !vec) -> !vec {
    %y = catalyst.launch_kernel @k::@twice(%x) : (!vec) -> !vec
    return %y : !vec
  }
  module @k attributes {catalyst.target = {}} {
    func.func @twice(%x: !vec) -> !vec {
      %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : !vec
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : !vec

        // Twice the element: line 30 of the file.
        %s = "arith.addf"(%v, %v) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        memref.store %s, %y[%i] : !vec
      }
      return %y : !vec
    }
  }
}
