// An unknown save-ir-after-each mode is reported on the target.
//

module {
  // expected-error @+1 {{'builtin.module' op save-ir-after-each: unknown save mode 'bogus'; use pipeline, changed or pass}}
  module @t attributes {catalyst.target} {
  }
}
