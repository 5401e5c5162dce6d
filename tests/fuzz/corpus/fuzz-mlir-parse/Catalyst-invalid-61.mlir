
func.func @custom_call_backend_config_not_a_dictionary() {
  // expected-error @+1 {{'catalyst.custom_call' op attribute 'backend_config' failed to satisfy constraint: dictionary of named attribute values}}
  catalyst.custom_call fn("f") () {backend_config = "dispatch"} : () -> ()
  return
}
