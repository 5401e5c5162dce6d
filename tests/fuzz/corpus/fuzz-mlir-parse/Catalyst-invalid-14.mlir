
//===----------------------------------------------------------------------===//
// catalyst.runtime_call
//===----------------------------------------------------------------------===//

func.func @empty_callee() {
  // expected-error @+1 {{'catalyst.runtime_call' op callee is empty; name the C function to call}}
  catalyst.runtime_call ""() {c_params = []} : () -> ()
  return
}

