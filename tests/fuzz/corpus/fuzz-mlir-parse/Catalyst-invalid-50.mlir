
module {
  // expected-error @+1 {{'func.func' op carries 'catalyst.object_file', which belongs on a nested builtin.module only}}
  func.func @f() attributes {catalyst.object_file = "/tmp/f.o"} {
    return
  }
}

