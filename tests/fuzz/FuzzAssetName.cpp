//===- FuzzAssetName.cpp - the asset name check ---------------------------===//
//
// assetNameProblem (Wire.h) is all that stands between a client's name and
// a path on the executor: a name it takes must name a file directly inside
// the asset directory. The harness stores the asset (storeAsset, in a
// session's asset directory) and checks that every name accepted made
// exactly one file there, under that name, and nothing anywhere else.
//
//===----------------------------------------------------------------------===//
#include "AssetService.h"
#include "ExecutorRuntime/Wire.h"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

using namespace executor_studio::runtime;
namespace fs = std::filesystem;

namespace {
std::string directory;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  std::string error;
  fs::path root = fs::temp_directory_path() / ("fuzz-asset-name-" +
                                               std::to_string(::getpid()));
  fs::create_directories(root);
  directory = makeAssetDirectory(root.string(), error);
  enterAssetDirectory(directory, error);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string name(reinterpret_cast<const char *>(data), size);
  std::string problem = assetNameProblem(name);
  std::string stored = storeAsset(name, "x", 1);
  // storeAsset refuses exactly what the check refuses.
  if (problem.empty() != stored.empty() && problem.empty() == false)
    std::abort();
  size_t files = 0;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(directory, ec)) {
    ++files;
    if (entry.path().filename().string() != name)
      std::abort(); // something other than the asset itself
  }
  if (problem.empty() && stored.empty() && files != 1)
    std::abort();
  if (!problem.empty() && files != 0)
    std::abort();
  // Nothing beside the asset directory.
  size_t siblings = 0;
  for (const auto &entry :
       fs::directory_iterator(fs::path(directory).parent_path(), ec)) {
    (void)entry;
    ++siblings;
  }
  if (siblings != 1)
    std::abort();
  for (const auto &entry : fs::directory_iterator(directory, ec))
    fs::remove(entry.path(), ec);
  return 0;
}
