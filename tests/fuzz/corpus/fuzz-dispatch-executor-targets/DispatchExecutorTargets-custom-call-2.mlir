
// Without setup() the session is opened where the call is.
module @no_setup {
  func.func @f() {
    catalyst.custom_call fn("reset") () {backend_config = {dispatch = "[::1]:4711"}} : () -> ()
    return
  }
}

