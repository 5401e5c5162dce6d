
module @m attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:70000"}} {
}

