
module @m attributes {catalyst.target = {}, catalyst.dispatch = {address = "::1:4711"}} {
}

