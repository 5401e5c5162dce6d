
module attributes {catalyst.object_files = ["/tmp/a.o", 1]} {
}

