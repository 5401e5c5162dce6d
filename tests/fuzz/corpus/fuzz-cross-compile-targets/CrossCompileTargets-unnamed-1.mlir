
// A dispatched one: its object recorded on it; it has no entries (nothing can
// launch into a module without a name), so it is left empty.
module {
  module attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func @g() {
      return
    }
  }
}

// ELF: Type: REL (Relocatable file)

// MANIFEST: {{^}}[[WS]]/unnamed/unnamed.o{{$}}
// MANIFEST-NOT: {{.}}
