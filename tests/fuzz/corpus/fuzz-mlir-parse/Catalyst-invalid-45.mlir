
module @m attributes {catalyst.target = {}, catalyst.dispatch = {}} {
}

