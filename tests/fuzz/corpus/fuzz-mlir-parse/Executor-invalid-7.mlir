
func.func @placeholder_bad_chars() {
  // expected-error @+1 {{'executor.open' op address "ADDR:PO-RT" has port 'PO-RT', which is neither a number nor a placeholder name}}
  %s = executor.open("ADDR:PO-RT") : !executor.session
  return
}

