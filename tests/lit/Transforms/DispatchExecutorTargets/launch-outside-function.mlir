// XFAIL: *
// BUG: a catalyst.launch_kernel into a dispatched target that is not inside
// a function (here directly in the module body, which builtin.module
// allows) crashes dispatch-executor-targets: the launch's parent
// FunctionOpInterface is null and is used as a map key and cast
// (SIGSEGV). It should be an error, like lower-runtime-dispatch's "must be
// inside a function to be dispatched".
//
// RUN: executor-opt %s -verify-diagnostics --dispatch-executor-targets

module @prog {
  // expected-error @+1 {{'catalyst.launch_kernel' op must be inside a function to be dispatched}}
  catalyst.launch_kernel @compute::@k() : () -> ()
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}, catalyst.object_file = "/ws/compute/compute.o"} {
    func.func private @k()
  }
}
