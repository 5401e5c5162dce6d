
//===----------------------------------------------------------------------===//
// executor.send_binary
//===----------------------------------------------------------------------===//

func.func @empty_binary_path(%s: !executor.session) {
  // expected-error @+1 {{'executor.send_binary' op binary_path is empty; give the path of the object file to ship (cross-compile-targets records it as catalyst.object_file)}}
  executor.send_binary %s("") : !executor.session
  return
}

