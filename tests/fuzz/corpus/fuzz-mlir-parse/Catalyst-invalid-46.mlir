
module @m attributes {catalyst.target = {}, catalyst.dispatch = {address = 4711}} {
}

