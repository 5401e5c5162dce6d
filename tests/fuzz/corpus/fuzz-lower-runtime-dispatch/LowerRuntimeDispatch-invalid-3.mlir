
// Every offending call is reported, not only the first.

func.func @each_call_reported(%n: i64) {
  // expected-error @+1 {{has an empty dispatch but the program has no executor address}}
  catalyst.runtime_call "first"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
  // expected-error @+1 {{has an empty dispatch but the program has no executor address}}
  catalyst.runtime_call "second"(%n) {c_params = ["i64"], dispatch = ""} : (i64) -> ()
  return
}

