// Module names become file names in the workspace ({name}/{name}.o and
// {root}.objects). A name that is not one plain path component is an error at
// the module, and nothing is written outside the workspace.
//
// RUN: rm -rf %t && mkdir -p %t/ws
// RUN: executor-opt %s -split-input-file -verify-diagnostics --cross-compile-targets="workspace=%t/ws"
// RUN: find %t | sort | FileCheck %s --check-prefix=FILES

// FILES: {{.*}}/ws{{$}}
// FILES-NOT: victim
// FILES-NOT: .o{{$}}

module @prog {
  // expected-error @+1 {{catalyst.target module name "../../../x/victim" contains a path separator: it names the module's directory and object in the workspace, so it must be a plain file name; rename the module}}
  module @"../../../x/victim" attributes {catalyst.target} {
  }
}

// -----

module @prog {
  // expected-error @+1 {{catalyst.target module name ".." is a directory reference}}
  module @".." attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
  }
}

// -----

module @prog {
  // expected-error @+1 {{catalyst.target module name "a\0Ab" contains a control character}}
  module @"a\0Ab" attributes {catalyst.target} {
  }
}

// -----

// The root module's name names the linker manifest.
// expected-error @+1 {{module name "../victim" contains a path separator: it names the linker manifest NAME.objects in the workspace, so it must be a plain file name; rename the module}}
module @"../victim" {
  module @t attributes {catalyst.target} {
  }
}
