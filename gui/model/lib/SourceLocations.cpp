//===- SourceLocations.cpp - where a line of IR came from -------*- C++ -*-===//
#include "StudioModel/SourceLocations.h"

#include "StudioModel/IrText.h"

#include <filesystem>
#include <fstream>

using namespace executor_studio;
using namespace executor_studio::gui;

namespace {
/// The `loc(...)` of the `#name = loc(...)` line of `text` for alias `name`.
std::optional<llvm::StringRef> findAliasLocation(const TextLines &text,
                                                 llvm::StringRef name) {
  for (size_t i = text.size(); i-- > 0;) {
    llvm::StringRef line(text.line(i).data(), text.line(i).size());
    if (line.consume_front(name) && line.consume_front(" = ") &&
        line.starts_with("loc("))
      return line;
  }
  return std::nullopt;
}
} // namespace

std::vector<SourceLocation>
executor_studio::gui::findSourceLocations(std::string_view line,
                                          const TextLines *text) {
  // Core's parser (Pipeline/OpHistory.h), with this text's aliases.
  return findMlirPlaces(
      llvm::StringRef(line.data(), line.size()),
      [&](llvm::StringRef alias) -> std::optional<llvm::StringRef> {
        if (!text)
          return std::nullopt;
        return findAliasLocation(*text, alias);
      });
}

std::optional<SourceLocation>
executor_studio::gui::findSourceOnDisk(std::string_view line,
                                       const TextLines *text,
                                       const std::string &baseDirectory) {
  namespace fs = std::filesystem;
  for (SourceLocation loc : findSourceLocations(line, text)) {
    fs::path path(loc.file);
    if (path.is_relative() && !baseDirectory.empty())
      path = fs::path(baseDirectory) / path;
    std::error_code error;
    if (!fs::is_regular_file(path, error))
      continue;
    loc.file = fs::absolute(path, error).lexically_normal().string();
    return loc;
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>>
executor_studio::gui::readSourceLines(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line))
    lines.push_back(std::move(line));
  return lines;
}
