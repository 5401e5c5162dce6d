// A target module without a name is `unnamed`: {workspace}/unnamed/unnamed.o.
// A root module without a name writes its manifest as module.objects.
//

// A local one: erased, its object listed on the root.
module {
  func.func @main() {
    return
  }
  module attributes {catalyst.target} {
    func.func @f() {
      return
    }
  }
}

