
//===----------------------------------------------------------------------===//
// Missing or mistyped inherent attributes (generic form)
//===----------------------------------------------------------------------===//

func.func @open_missing_address() {
  // expected-error @+1 {{'executor.open' op requires attribute 'address'}}
  %s = "executor.open"() : () -> !executor.session
  return
}

