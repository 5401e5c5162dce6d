// The lines of this file are not the lines of its printed form: comments,
// blank lines, a type alias and ops in generic form move every op, so a
// line a user types (`--history 27`) must be read as a line of this file.

!vec = memref<4xf64>


module @prog {
  // The host: one launch.
  func.func @main(%x: !vec) -> !vec {

    %y = catalyst.launch_kernel @k::@twice(%x) : (!vec) -> !vec

    return %y : !vec
  }

  // The kernel, compiled for this machine.
  module @k attributes {catalyst.target = {}} {
    func.func @twice(%x: !vec) -> !vec {
      %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %y = memref.alloc() : !vec
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : !vec
        // Twice the element (line 27 is its addf).
        %s = "arith.addf"(%v, %v) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64

        memref.store %s, %y[%i] : !vec
      }
      return %y : !vec
    }
  }
}
