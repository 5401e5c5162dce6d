
module @m attributes {catalyst.target = {debug = "yes"}} {
}

