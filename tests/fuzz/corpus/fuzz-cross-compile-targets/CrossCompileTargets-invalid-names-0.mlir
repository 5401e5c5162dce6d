// Module names become file names in the workspace ({name}/{name}.o and
// {root}.objects). A name that is not one plain path component is an error at
// the module, and nothing is written outside the workspace.
//

// FILES: {{.*}}/ws{{$}}
// FILES-NOT: victim
// FILES-NOT: .o{{$}}

module @prog {
  // expected-error @+1 {{catalyst.target module name "../../../x/victim" contains a path separator: it names the module's directory and object in the workspace, so it must be a plain file name; rename the module}}
  module @"../../../x/victim" attributes {catalyst.target} {
  }
}

