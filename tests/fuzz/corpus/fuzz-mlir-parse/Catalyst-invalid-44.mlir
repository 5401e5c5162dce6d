
module @m attributes {catalyst.target = {}, catalyst.dispatch = "127.0.0.1:4711"} {
}

