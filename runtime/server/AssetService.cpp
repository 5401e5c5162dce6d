//===- AssetService.cpp - files shipped with send_binary format 1 ---------===//
//
// Every session has a private directory, made by the listener before it
// forks the session and removed by the listener when the session process
// ends, however it ends. `__executor_studio_store_asset` writes an asset
// there under the plain file name it was sent with (Wire.h checks it), into
// a temporary file first and then renamed into place, so a kernel never
// sees half an asset and nothing is ever written outside the directory.
//
//===----------------------------------------------------------------------===//
#include "AssetService.h"
#include "ExecutorRuntime/Wire.h"
#include "LaunchService.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace llvm::orc::shared;

namespace executor_studio::runtime {

namespace {
std::string assetDirectory;
std::string assetDirectoryProblem = "the session has no asset directory";

} // namespace

namespace {
constexpr const char *kAssetPrefix = "executor-assets-";

/// The directories made by makeAssetDirectory and not removed yet, by path:
/// their identity, to find one again that a session renamed.
std::map<std::string, std::pair<dev_t, ino_t>> &madeDirectories() {
  static auto *made = new std::map<std::string, std::pair<dev_t, ino_t>>;
  return *made;
}

/// Whether `pid` is a running executor-server (whose directories are its).
bool serverRuns(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  return std::getline(in, name) && name == "executor-server";
}
} // namespace

std::string makeAssetDirectory(const std::string &root, std::string &error) {
  // The server's PID in the name: a later server on the same root removes
  // what a server that was killed left (removeStaleAssetDirectories).
  std::string pattern =
      root + "/" + kAssetPrefix + std::to_string(getpid()) + "-XXXXXX";
  std::vector<char> path(pattern.begin(), pattern.end());
  path.push_back('\0');
  if (!mkdtemp(path.data())) { // mode 0700
    error = "cannot make an asset directory in " + root + ": " +
            std::strerror(errno);
    return "";
  }
  struct stat st;
  if (stat(path.data(), &st) == 0)
    madeDirectories()[path.data()] = {st.st_dev, st.st_ino};
  return path.data();
}

void removeAssetDirectory(const std::string &directory) {
  if (directory.empty())
    return;
  std::string path = directory;
  auto made = madeDirectories().find(directory);
  if (made != madeDirectories().end()) {
    // A session may have renamed its directory (it owns it): find it again
    // in the root by its identity.
    std::pair<dev_t, ino_t> id = made->second;
    madeDirectories().erase(made);
    auto isIt = [&](const std::string &candidate) {
      struct stat st;
      return lstat(candidate.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
             st.st_dev == id.first && st.st_ino == id.second;
    };
    if (!isIt(path)) {
      path.clear();
      std::error_code ec;
      std::string root =
          std::filesystem::path(directory).parent_path().string();
      for (const auto &entry :
           std::filesystem::directory_iterator(root, ec))
        if (isIt(entry.path().string())) {
          path = entry.path().string();
          logEvent("the asset directory " + directory + " was renamed to " +
                   path + "; removing it there");
          break;
        }
      if (path.empty()) {
        logEvent("error: the asset directory " + directory +
                 " was moved out of its root; it cannot be removed");
        return;
      }
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  if (ec)
    logEvent("error: cannot remove the asset directory " + path + ": " +
             ec.message());
}

void removeStaleAssetDirectories(const std::string &root) {
  std::error_code ec;
  std::string prefix = kAssetPrefix;
  for (const auto &entry : std::filesystem::directory_iterator(root, ec)) {
    std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0)
      continue;
    // executor-assets-PID-XXXXXX, of a server that no longer runs.
    std::string rest = name.substr(prefix.size());
    size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos ||
        rest.find_first_not_of("0123456789") != dash)
      continue;
    long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
    if (pid <= 0 || pid == getpid() || serverRuns(static_cast<pid_t>(pid)))
      continue;
    struct stat st;
    if (lstat(entry.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        (geteuid() != 0 && st.st_uid != geteuid()))
      continue;
    std::error_code removed;
    std::filesystem::remove_all(entry.path(), removed);
    if (removed)
      logEvent("error: cannot remove the asset directory " +
               entry.path().string() + " left by a server that stopped (pid " +
               std::to_string(pid) + "): " + removed.message());
    else
      logEvent("removed the asset directory " + entry.path().string() +
               " left by a server that stopped (pid " + std::to_string(pid) +
               ")");
  }
}

void enterAssetDirectory(const std::string &directory, const std::string &why) {
  assetDirectory = directory;
  if (directory.empty()) {
    assetDirectoryProblem = why;
    return;
  }
  if (::chdir(directory.c_str()) != 0) {
    assetDirectoryProblem = "cannot enter the asset directory " + directory +
                            ": " + std::strerror(errno);
    logEvent("error: " + assetDirectoryProblem);
    assetDirectory.clear();
    return;
  }
  ::setenv("EXECUTOR_ASSET_DIR", directory.c_str(), /*overwrite=*/1);
}

std::string storeAsset(const std::string &name, const char *content,
                       size_t bytes) {
  std::string shown = name.size() > 64 ? name.substr(0, 64) + "..." : name;
  for (char &c : shown)
    if (c == '\0')
      c = '?';
  std::string problem = assetNameProblem(name);
  if (!problem.empty())
    return "refused asset name '" + shown + "': " + problem;
  if (assetDirectory.empty())
    return "cannot store asset '" + name + "': " + assetDirectoryProblem;

  // A fresh temporary name (O_EXCL: never an existing file or link), then
  // rename(2), which replaces the entry `name` itself and follows no link.
  // Relative to the working directory, which is the asset directory: the
  // session entered it before it dropped privileges, and its --run-as user
  // may not be able to reach it by its full path.
  std::string target = "./" + name;
  std::string temporary = "./.executor-asset-XXXXXX";
  int fd = mkstemp(temporary.data());
  if (fd < 0)
    return "cannot store asset '" + name + "' in " + assetDirectory + ": " +
           std::strerror(errno);
  bool written = writeAllTo(fd, content, bytes);
  int savedErrno = errno;
  if (::close(fd) != 0 && written) {
    written = false;
    savedErrno = errno;
  }
  if (!written || ::rename(temporary.c_str(), target.c_str()) != 0) {
    if (written)
      savedErrno = errno;
    ::unlink(temporary.c_str());
    return "cannot store asset '" + name + "' in " + assetDirectory + ": " +
           std::strerror(savedErrno);
  }
  logEvent("asset stored: " + name + " (" + std::to_string(bytes) + " bytes)");
  return "";
}

extern "C" CWrapperFunctionBuffer executorStudioStoreAsset(const char *data,
                                                           size_t size) {
  Reader r(data, size);
  uint32_t length = 0;
  const char *nameBytes = nullptr;
  if (!r.get(length) || !(nameBytes = r.take(length)))
    return failWith("malformed store_asset request");
  std::string name(nameBytes, length);
  size_t bytes = size - sizeof(length) - length;
  std::string problem = storeAsset(name, r.take(bytes), bytes);
  if (!problem.empty())
    return failWith(problem);
  return replyEmpty();
}

std::unique_ptr<Service> makeAssetService() {
  return std::make_unique<Service>(std::vector<Service::Symbol>{
      Service::wrapperSymbol(kStoreAssetWrapperName, &executorStudioStoreAsset),
  });
}

} // namespace executor_studio::runtime
