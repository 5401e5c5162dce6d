
// In the custom form the type of the session operand is checked while
// parsing.
func.func @i32_session_custom(%c: i32) {
  // expected-error @+1 {{custom op 'executor.close' invalid kind of type specified: expected executor.session, but found 'i32'}}
  executor.close %c : i32
  return
}

