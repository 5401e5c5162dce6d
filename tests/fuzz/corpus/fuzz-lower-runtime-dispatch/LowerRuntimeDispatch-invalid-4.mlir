
// A string of 256 bytes would lose its NUL terminator in the 256-byte slot.

func.func @string_too_long() {
  // expected-error @+1 {{'catalyst.runtime_call' op c_strings entry of 256 bytes does not fit the 256-byte string slot of the executor wire layout (at most 255 bytes and a NUL)}}
  catalyst.runtime_call "log"() {c_params = ["str"], c_strings = ["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"], dispatch = "127.0.0.1:4711"} : () -> ()
  return
}

