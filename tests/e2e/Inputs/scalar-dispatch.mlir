// Issue 40: scalar arguments and results of kernels on an executor. The
// same two kernels are in a dispatched target (@remote, at ADDR:PORT) and a
// local one (@local, linked into the host); @main launches both copies with
// the same operands and prints every result, so each line of a dispatched
// launch can be checked against the same line of the local one.
//   @axpy(a: f64, n: i32, x: memref<8xf64>) -> (memref<8xf64>, f64):
//     y = a * x + n, and the sum of y;
//   @mix(i1, i8, i16, i64, index, f16, f32) -> (i1, i8, i16, i64, index, f16, f32):
//     not b, c + 1, d * 2, c + d + e + f, f * 3, g * g, h * 2 + g.
module @host {
  func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
  func.func private @printF64(f64)
  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @setup() {
    return
  }

  func.func @show(%y: memref<8xf64>, %sum: f64) {
    %u = memref.cast %y : memref<8xf64> to memref<*xf64>
    func.call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    func.call @printF64(%sum) : (f64) -> ()
    func.call @printNewline() : () -> ()
    return
  }

  func.func @showMix(%b: i1, %c: i8, %d: i16, %e: i64, %f: index, %g: f16, %h: f32) {
    %b64 = arith.extui %b : i1 to i64
    func.call @printI64(%b64) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %c64 = arith.extsi %c : i8 to i64
    func.call @printI64(%c64) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %d64 = arith.extsi %d : i16 to i64
    func.call @printI64(%d64) : (i64) -> ()
    func.call @printNewline() : () -> ()
    func.call @printI64(%e) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %f64 = arith.index_cast %f : index to i64
    func.call @printI64(%f64) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %g64 = arith.extf %g : f16 to f64
    func.call @printF64(%g64) : (f64) -> ()
    func.call @printNewline() : () -> ()
    %h64 = arith.extf %h : f32 to f64
    func.call @printF64(%h64) : (f64) -> ()
    func.call @printNewline() : () -> ()
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.000000e+00 : f64
    // x = [1, 2, ..., 8]
    %x = memref.alloc() : memref<8xf64>
    scf.for %i = %c0 to %c8 step %c1 {
      %i64 = arith.index_cast %i : index to i64
      %f = arith.sitofp %i64 : i64 to f64
      %v = arith.addf %f, %one : f64
      memref.store %v, %x[%i] : memref<8xf64>
    }
    %a = arith.constant 2.500000e+00 : f64
    %n = arith.constant -3 : i32

    %ry, %rsum = catalyst.launch_kernel @remote::@axpy(%a, %n, %x) : (f64, i32, memref<8xf64>) -> (memref<8xf64>, f64)
    func.call @show(%ry, %rsum) : (memref<8xf64>, f64) -> ()
    %ly, %lsum = catalyst.launch_kernel @local::@axpy(%a, %n, %x) : (f64, i32, memref<8xf64>) -> (memref<8xf64>, f64)
    func.call @show(%ly, %lsum) : (memref<8xf64>, f64) -> ()

    %b = arith.constant true
    %c = arith.constant -7 : i8
    %d = arith.constant 300 : i16
    %e = arith.constant 5000000000 : i64
    %f = arith.constant 41 : index
    %g = arith.constant 1.500000e+00 : f16
    %h = arith.constant 3.250000e+00 : f32
    %r:7 = catalyst.launch_kernel @remote::@mix(%b, %c, %d, %e, %f, %g, %h) : (i1, i8, i16, i64, index, f16, f32) -> (i1, i8, i16, i64, index, f16, f32)
    func.call @showMix(%r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6) : (i1, i8, i16, i64, index, f16, f32) -> ()
    %l:7 = catalyst.launch_kernel @local::@mix(%b, %c, %d, %e, %f, %g, %h) : (i1, i8, i16, i64, index, f16, f32) -> (i1, i8, i16, i64, index, f16, f32)
    func.call @showMix(%l#0, %l#1, %l#2, %l#3, %l#4, %l#5, %l#6) : (i1, i8, i16, i64, index, f16, f32) -> ()

    // A scalar result alone comes back by value from the wrapper.
    %s = catalyst.launch_kernel @remote::@half(%a) : (f64) -> f64
    func.call @printF64(%s) : (f64) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %x : memref<8xf64>
    return
  }

  module @remote attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @axpy(%a: f64, %n: i32, %x: memref<8xf64>) -> (memref<8xf64>, f64) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.000000e+00 : f64
      %nf = arith.sitofp %n : i32 to f64
      %y = memref.alloc() : memref<8xf64>
      %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f64) {
        %v = memref.load %x[%i] : memref<8xf64>
        %ax = arith.mulf %a, %v : f64
        %w = arith.addf %ax, %nf : f64
        memref.store %w, %y[%i] : memref<8xf64>
        %next = arith.addf %acc, %w : f64
        scf.yield %next : f64
      }
      return %y, %sum : memref<8xf64>, f64
    }
    func.func @mix(%b: i1, %c: i8, %d: i16, %e: i64, %f: index, %g: f16, %h: f32) -> (i1, i8, i16, i64, index, f16, f32) {
      %true = arith.constant true
      %nb = arith.xori %b, %true : i1
      %one8 = arith.constant 1 : i8
      %c1 = arith.addi %c, %one8 : i8
      %two16 = arith.constant 2 : i16
      %d2 = arith.muli %d, %two16 : i16
      %c64 = arith.extsi %c : i8 to i64
      %d64 = arith.extsi %d : i16 to i64
      %f64 = arith.index_cast %f : index to i64
      %s1 = arith.addi %c64, %d64 : i64
      %s2 = arith.addi %s1, %e : i64
      %s3 = arith.addi %s2, %f64 : i64
      %three = arith.constant 3 : index
      %f3 = arith.muli %f, %three : index
      %gg = arith.mulf %g, %g : f16
      %two = arith.constant 2.000000e+00 : f32
      %h2 = arith.mulf %h, %two : f32
      %g32 = arith.extf %g : f16 to f32
      %hg = arith.addf %h2, %g32 : f32
      return %nb, %c1, %d2, %s3, %f3, %gg, %hg : i1, i8, i16, i64, index, f16, f32
    }
    func.func @half(%a: f64) -> f64 {
      %h = arith.constant 5.000000e-01 : f64
      %r = arith.mulf %a, %h : f64
      return %r : f64
    }
  }

  module @local attributes {catalyst.target = {}} {
    func.func @axpy(%a: f64, %n: i32, %x: memref<8xf64>) -> (memref<8xf64>, f64) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.000000e+00 : f64
      %nf = arith.sitofp %n : i32 to f64
      %y = memref.alloc() : memref<8xf64>
      %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f64) {
        %v = memref.load %x[%i] : memref<8xf64>
        %ax = arith.mulf %a, %v : f64
        %w = arith.addf %ax, %nf : f64
        memref.store %w, %y[%i] : memref<8xf64>
        %next = arith.addf %acc, %w : f64
        scf.yield %next : f64
      }
      return %y, %sum : memref<8xf64>, f64
    }
    func.func @mix(%b: i1, %c: i8, %d: i16, %e: i64, %f: index, %g: f16, %h: f32) -> (i1, i8, i16, i64, index, f16, f32) {
      %true = arith.constant true
      %nb = arith.xori %b, %true : i1
      %one8 = arith.constant 1 : i8
      %c1 = arith.addi %c, %one8 : i8
      %two16 = arith.constant 2 : i16
      %d2 = arith.muli %d, %two16 : i16
      %c64 = arith.extsi %c : i8 to i64
      %d64 = arith.extsi %d : i16 to i64
      %f64 = arith.index_cast %f : index to i64
      %s1 = arith.addi %c64, %d64 : i64
      %s2 = arith.addi %s1, %e : i64
      %s3 = arith.addi %s2, %f64 : i64
      %three = arith.constant 3 : index
      %f3 = arith.muli %f, %three : index
      %gg = arith.mulf %g, %g : f16
      %two = arith.constant 2.000000e+00 : f32
      %h2 = arith.mulf %h, %two : f32
      %g32 = arith.extf %g : f16 to f32
      %hg = arith.addf %h2, %g32 : f32
      return %nb, %c1, %d2, %s3, %f3, %gg, %hg : i1, i8, i16, i64, index, f16, f32
    }
  }
}
