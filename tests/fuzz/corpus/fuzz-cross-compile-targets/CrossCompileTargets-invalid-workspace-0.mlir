// A workspace that cannot be written. (Permissions are not used: the tests
// may run as root.)
//
// Under /proc nothing can be created.
//
// Under a regular file.
//
// The object's path is taken by a directory.
//
// The manifest's path is taken by a directory.

// PROC: error: 'builtin.module' op cannot create workspace /proc/forbidden: {{.+}} (is the workspace writable?)
// FILE: error: 'builtin.module' op cannot create workspace {{.*}}/file/ws: Not a directory (is the workspace writable?)
// OBJECT: error: 'builtin.module' op cannot write {{.*}}/t/t.o: Is a directory (is the workspace writable?)
// MANIFEST: error: 'builtin.module' op cannot write {{.*}}/prog.objects: Is a directory

module @prog {
  func.func @main() {
    catalyst.launch_kernel @t::@f() : () -> ()
    return
  }
  module @t attributes {catalyst.target} {
    func.func @f() {
      return
    }
  }
}
