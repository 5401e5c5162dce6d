// dispatch-executor-targets rewrites a catalyst.custom_call whose
// backend_config carries a dispatch into executor.call on that executor's
// session: number_original_arg becomes num_input_args, the operands and
// results stay. An empty dispatch means the program's only executor. The
// session is opened in setup() (with the targets' sessions) and in the
// function that calls; a custom_call without dispatch stays on the host.
//

// An explicit address, and no target module at all.
module @explicit {
  func.func @setup() {
    return
  }
  func.func @main(%arg0: memref<256xi8>, %out: memref<4xf64>) {
    catalyst.custom_call fn("foo") (%arg0, %out) {backend_config = {dispatch = "ADDR:PORT"}, number_original_arg = 1 : i32} : (memref<256xi8>, memref<4xf64>) -> ()
    catalyst.custom_call fn("host_only") (%arg0) : (memref<256xi8>) -> ()
    catalyst.custom_call fn("bar") () {backend_config = {dispatch = "ADDR:PORT"}} : () -> ()
    return
  }
}

