
//===----------------------------------------------------------------------===//
// catalyst.object_file / catalyst.object_files
//===----------------------------------------------------------------------===//

module @m attributes {catalyst.target = {}, catalyst.object_file = 1} {
}

