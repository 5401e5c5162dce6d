//===- Document.cpp - the .mlir file the studio shows ---------------------===//
#include "StudioModel/Document.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace executor_studio::gui {

namespace {
bool statFile(const std::string &path, int64_t &modified, int64_t &size) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return false;
  modified = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 +
             st.st_mtim.tv_nsec;
  size = static_cast<int64_t>(st.st_size);
  return true;
}
} // namespace

bool Document::open(const std::string &path, std::string &error) {
  int64_t newModified = 0, newSize = -1;
  if (!statFile(path, newModified, newSize)) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error = "cannot open " + path + ": it is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  filePath = path;
  bufferName = path;
  content = std::make_shared<const std::string>(text.str());
  modified = newModified;
  size = newSize;
  ++gen;
  return true;
}

bool Document::reload(std::string &error) {
  if (filePath.empty()) {
    error = "the document has no file to reload";
    return false;
  }
  std::string path = filePath;
  return open(path, error);
}

void Document::setText(std::string name, std::string text) {
  filePath.clear();
  bufferName = std::move(name);
  content = std::make_shared<const std::string>(std::move(text));
  modified = 0;
  size = -1;
  ++gen;
}

bool Document::changedOnDisk() const {
  if (filePath.empty())
    return false;
  int64_t nowModified = 0, nowSize = -1;
  if (!statFile(filePath, nowModified, nowSize))
    return false;
  return nowModified != modified || nowSize != size;
}

const std::string &Document::text() const {
  static const std::string empty;
  return content ? *content : empty;
}

} // namespace executor_studio::gui
