//===- EmbeddedObjects.h - kernel objects embedded in a program -*- C++ -*-===//
#ifndef EXECUTORRUNTIME_LIB_EMBEDDEDOBJECTS_H
#define EXECUTORRUNTIME_LIB_EMBEDDEDOBJECTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace executor_studio::runtime {
/// The bytes the program embedded for `path`
/// (__executor_studio_register_embedded), if any.
std::optional<llvm::ArrayRef<char>> findEmbeddedFile(llvm::StringRef path);
} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_LIB_EMBEDDEDOBJECTS_H
