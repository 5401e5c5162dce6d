
module @m attributes {catalyst.target = {triple = ""}} {
}

