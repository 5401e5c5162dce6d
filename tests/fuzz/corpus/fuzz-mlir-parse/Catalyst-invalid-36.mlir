
module @m attributes {catalyst.target = "x86_64-unknown-linux-gnu"} {
}

