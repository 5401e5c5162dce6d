
func.func @call_scalar_operand(%s: !executor.session, %a: f64) {
  // expected-error @+1 {{'executor.call' op operand #1 must be variadic of ranked tensor of any type values or memref of any type values, but got 'f64'}}
  executor.call %s("f")(%a) : !executor.session, (f64) -> ()
  return
}

