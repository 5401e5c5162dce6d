
// The session is opened at a function's entry: a call outside any function
// cannot be dispatched.

module {
  // expected-error @+1 {{'catalyst.runtime_call' op must be inside a function to be dispatched}}
  catalyst.runtime_call "x"() {c_params = [], dispatch = "127.0.0.1:4711"} : () -> ()
}
