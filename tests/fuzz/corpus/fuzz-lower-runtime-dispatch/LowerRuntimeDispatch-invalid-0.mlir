// Every error of lower-runtime-dispatch.
//

// An empty dispatch in a program without an executor.

func.func @no_executor(%n: i64) {
  // expected-error @+1 {{'catalyst.runtime_call' op has an empty dispatch but the program has no executor address: write dispatch = "host:port", or give a dispatched module catalyst.dispatch = {address = "host:port"}}}
  catalyst.runtime_call "sample"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
  return
}

