// A host whose @main prepares three inputs in scf.for loops (one nested
// loop, one with an scf.if) and runs three dispatched kernels, plus helper
// functions around it. Written for print-diff-structural.test: a pass that
// does not touch host code must change no host line in the diff.
module @lab {
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

  func.func @setup() {
    return
  }

  func.func @fill(%buf: memref<8xf32>, %value: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %k = %c0 to %c8 step %c1 {
      memref.store %value, %buf[%k] : memref<8xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %two = arith.constant 2.000000e+00 : f32
    %ten = arith.constant 1.000000e+01 : f32

    %a = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %f = arith.sitofp %i32 : i32 to f32
      %v = arith.mulf %f, %two : f32
      memref.store %v, %a[%i] : memref<8xf32>
    }

    %b = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c2 {
      scf.for %j = %c0 to %c2 step %c1 {
        %idx = arith.addi %i, %j : index
        %j32 = arith.index_cast %j : index to i32
        %g = arith.sitofp %j32 : i32 to f32
        %w = arith.addf %g, %ten : f32
        memref.store %w, %b[%idx] : memref<8xf32>
      }
    }

    %c = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %even = arith.remui %i, %c2 : index
      %is_even = arith.cmpi eq, %even, %c0 : index
      %x = scf.if %is_even -> (f32) {
        %p = memref.load %a[%i] : memref<8xf32>
        scf.yield %p : f32
      } else {
        %q = memref.load %b[%i] : memref<8xf32>
        scf.yield %q : f32
      }
      memref.store %x, %c[%i] : memref<8xf32>
    }

    %sum = catalyst.launch_kernel @vec::@add(%a, %b) : (memref<8xf32>, memref<8xf32>) -> memref<8xf32>
    %prod = catalyst.launch_kernel @vec::@mul(%sum, %c) : (memref<8xf32>, memref<8xf32>) -> memref<8xf32>
    %neg = catalyst.launch_kernel @neg::@negate(%prod) : (memref<8xf32>) -> memref<8xf32>

    %neg_u = memref.cast %neg : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%neg_u) : (memref<*xf32>) -> ()
    memref.dealloc %a : memref<8xf32>
    memref.dealloc %b : memref<8xf32>
    memref.dealloc %c : memref<8xf32>
    return
  }

  func.func @report(%m: memref<8xf32>) {
    %m_u = memref.cast %m : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%m_u) : (memref<*xf32>) -> ()
    return
  }

  module @vec attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:7700"}} {
    func.func @add(%x: memref<8xf32>, %y: memref<8xf32>) -> memref<8xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %z = memref.alloc() : memref<8xf32>
      scf.for %i = %c0 to %c8 step %c1 {
        %u = memref.load %x[%i] : memref<8xf32>
        %v = memref.load %y[%i] : memref<8xf32>
        %s = arith.addf %u, %v : f32
        memref.store %s, %z[%i] : memref<8xf32>
      }
      return %z : memref<8xf32>
    }
    func.func @mul(%x: memref<8xf32>, %y: memref<8xf32>) -> memref<8xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %z = memref.alloc() : memref<8xf32>
      scf.for %i = %c0 to %c8 step %c1 {
        %u = memref.load %x[%i] : memref<8xf32>
        %v = memref.load %y[%i] : memref<8xf32>
        %p = arith.mulf %u, %v : f32
        memref.store %p, %z[%i] : memref<8xf32>
      }
      return %z : memref<8xf32>
    }
  }

  module @neg attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:7701"}} {
    func.func @negate(%x: memref<8xf32>) -> memref<8xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %z = memref.alloc() : memref<8xf32>
      scf.for %i = %c0 to %c8 step %c1 {
        %u = memref.load %x[%i] : memref<8xf32>
        %n = arith.negf %u : f32
        memref.store %n, %z[%i] : memref<8xf32>
      }
      return %z : memref<8xf32>
    }
  }
}
