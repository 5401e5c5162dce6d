
module @m attributes {catalyst.target = {cpu = "skylake"}} {
}

