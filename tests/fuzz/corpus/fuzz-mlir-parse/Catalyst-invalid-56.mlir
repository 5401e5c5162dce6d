
//===----------------------------------------------------------------------===//
// catalyst.custom_call
//===----------------------------------------------------------------------===//

func.func @custom_call_empty_name() {
  // expected-error @+1 {{'catalyst.custom_call' op call_target_name is empty; name the function to call}}
  catalyst.custom_call fn("") () : () -> ()
  return
}

