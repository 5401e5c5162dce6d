// The errors of cross-compile-targets that need a workspace to be reached.
//
// RUN: rm -rf %t
// RUN: executor-opt %s -split-input-file -verify-diagnostics --cross-compile-targets="workspace=%t"

// Two targets with one name would write one object: modules without a name
// are both `unnamed`.

module {
  // expected-note @+1 {{first target @unnamed is here}}
  module attributes {catalyst.target} {
  }
  // expected-error @+1 {{'builtin.module' op duplicate catalyst.target module name 'unnamed': both would compile to unnamed/unnamed.o; give each target its own sym_name}}
  module attributes {catalyst.target} {
  }
}

// -----

// A module named `unnamed` and one without a name collide the same way.

module {
  // expected-note @+1 {{first target @unnamed is here}}
  module @unnamed attributes {catalyst.target} {
  }
  // expected-error @+1 {{duplicate catalyst.target module name 'unnamed'}}
  module attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

// -----

// A local target is linked into the host: it must be for the host.

module {
  // expected-error-re @+1 {{'builtin.module' op is a local target for triple "aarch64-unknown-linux-gnu" but the host is "{{.+}}": only dispatched targets (catalyst.dispatch) may be cross-compiled for another machine}}
  module @arm attributes {catalyst.target = {triple = "aarch64-unknown-linux-gnu"}} {
  }
}

// -----

// A dispatched target may be for any machine LLVM knows.

module {
  // expected-error @+1 {{'builtin.module' op has unknown triple "bogus-unknown-none": No available targets are compatible with triple "bogus-unknown-none"}}
  module @bogus attributes {catalyst.target = {triple = "bogus-unknown-none"}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

// -----

// A launch naming a function its target lacks, from inside a sibling module:
// the symbol verifier looks through the enclosing symbol tables.

module {
  module @other {
    func.func @m() {
      // expected-error @+1 {{'catalyst.launch_kernel' op callee @t::@missing: module @t has no function @missing}}
      catalyst.launch_kernel @t::@missing() : () -> ()
      return
    }
  }
  module @t attributes {catalyst.target} {
    func.func @f() {
      return
    }
  }
}

// -----

// A target pipeline that does not parse.

module {
  // expected-error @+1 {{'builtin.module' op has catalyst.target pipeline "builtin.module(no-such-pass)" that does not parse: 'no-such-pass' is not a registered pass or pass pipeline}}
  module @t attributes {catalyst.target = {pipeline = "builtin.module(no-such-pass)"}} {
  }
}

// -----

// A pipeline anchored on another operation does not parse either.

module {
  // expected-error @+1 {{has catalyst.target pipeline "func.func(canonicalize)" that does not parse: pipeline is anchored on 'func.func' but runs on 'builtin.module'}}
  module @t attributes {catalyst.target = {pipeline = "func.func(canonicalize)"}} {
  }
}

// -----

// A target whose lowering fails: the failing pass's diagnostic, then the
// target's.

module {
  // expected-error-re @+1 {{'builtin.module' op target @t failed to lower with "builtin.module(one-shot-bufferize{{.*}},reconcile-unrealized-casts)"}}
  module @t attributes {catalyst.target} {
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      // expected-error @+1 {{op was not bufferized}}
      %b = arith.addf %a, %a : tensor<4xf32>
      return %b : tensor<4xf32>
    }
  }
}

// -----

// A target the default lowering leaves outside the LLVM dialect (math.erf
// has no LLVM intrinsic; see target-options.mlir for a pipeline that
// handles it).

module {
  // expected-error @+1 {{'builtin.module' op target @t did not translate to LLVM IR; its pipeline must lower it to the LLVM dialect}}
  module @t attributes {catalyst.target} {
    func.func @f(%x: f64) -> f64 {
      // expected-error @+1 {{cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for dialect for op: math.erf}}
      %y = math.erf %x : f64
      return %y : f64
    }
  }
}

// -----

// A local target's entry becomes a host symbol: a host function of that
// name is a clash.

module {
  func.func @sum(%x: memref<4xf64>) -> memref<1xf64> {
    %y = catalyst.launch_kernel @local::@sum(%x) : (memref<4xf64>) -> memref<1xf64>
    return %y : memref<1xf64>
  }
  // expected-error @+1 {{'builtin.module' op local target entry @sum clashes with a host symbol of the same name; rename one of them (local objects are linked into the host)}}
  module @local attributes {catalyst.target} {
    func.func @sum(%x: memref<4xf64>) -> memref<1xf64> {
      %y = memref.alloc() : memref<1xf64>
      return %y : memref<1xf64>
    }
  }
}

// -----

// A host declaration of another type clashes too.

module {
  func.func private @sum(memref<8xf64>) -> memref<1xf64>
  func.func @main(%x: memref<4xf64>) -> memref<1xf64> {
    %y = catalyst.launch_kernel @local::@sum(%x) : (memref<4xf64>) -> memref<1xf64>
    return %y : memref<1xf64>
  }
  // expected-error @+1 {{local target entry @sum clashes with a host symbol of the same name}}
  module @local attributes {catalyst.target} {
    func.func @sum(%x: memref<4xf64>) -> memref<1xf64> {
      %y = memref.alloc() : memref<1xf64>
      return %y : memref<1xf64>
    }
  }
}
