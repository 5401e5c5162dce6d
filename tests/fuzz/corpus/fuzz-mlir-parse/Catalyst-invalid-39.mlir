
module @m attributes {catalyst.target = {triple = 1}} {
}

