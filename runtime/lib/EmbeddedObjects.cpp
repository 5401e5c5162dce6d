//===- EmbeddedObjects.cpp - kernel objects embedded in a program ---------===//
#include "EmbeddedObjects.h"
#include "ExecutorRuntime/Embedded.h"

#include <map>
#include <mutex>
#include <string>

namespace {
struct Table {
  std::mutex mutex;
  std::map<std::string, llvm::ArrayRef<char>> files;
};
Table &table() {
  static Table *t = new Table; // used until exit: never destroyed
  return *t;
}
} // namespace

extern "C" void
__executor_studio_register_embedded(const ExecutorEmbeddedFile *files,
                                    uint64_t count) {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (uint64_t i = 0; i < count; ++i)
    if (files[i].path)
      t.files[files[i].path] = llvm::ArrayRef<char>(
          files[i].data, static_cast<size_t>(files[i].size));
}

std::optional<llvm::ArrayRef<char>>
executor_studio::runtime::findEmbeddedFile(llvm::StringRef path) {
  Table &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.files.find(path.str());
  if (it == t.files.end())
    return std::nullopt;
  return it->second;
}
