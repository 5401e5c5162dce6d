
module @m attributes {catalyst.target = {triple = "x86_64-unknown-linux-gnu", pipeline = ""}} {
}

