// Every error the executor verifiers emit, one per chunk.
//

//===----------------------------------------------------------------------===//
// executor.open: the address
//===----------------------------------------------------------------------===//

func.func @empty_address() {
  // expected-error @+1 {{'executor.open' op address "" is empty; write it as host:port, e.g. "127.0.0.1:4711"}}
  %s = executor.open("") : !executor.session
  return
}

