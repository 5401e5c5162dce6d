
module @m attributes {catalyst.target = {pipeline = ["canonicalize"]}} {
}

