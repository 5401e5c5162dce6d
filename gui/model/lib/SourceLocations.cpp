//===- SourceLocations.cpp - where a line of IR came from -------*- C++ -*-===//
#include "StudioModel/SourceLocations.h"

#include "StudioModel/IrText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"

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

std::vector<SourceLocation> executor_studio::gui::findOpsAtFileLine(
    llvm::StringRef inputIR, llvm::StringRef fileName, llvm::StringRef fileText, unsigned line,
    unsigned column, std::string &why) {
  std::string name = llvm::sys::path::filename(fileName).str();
  llvm::SmallVector<llvm::StringRef> fileLines;
  fileText.split(fileLines, '\n');
  if (!fileText.empty() && fileText.ends_with("\n"))
    fileLines.pop_back();
  if (line == 0) {
    why = "lines are numbered from 1";
    return {};
  }
  if (line > fileLines.size()) {
    why = "line " + std::to_string(line) + " is past the end of " + name + " (" +
          std::to_string(fileLines.size()) + " lines)";
    return {};
  }
  // Every place the input names on that line of the file (a line table's
  // absolute path and the name given to the parser are the same file).
  SnapshotPlaces input(inputIR, SnapshotKind::MLIR);
  SourcePlace wanted{fileName.str(), line, 0};
  std::vector<SourceLocation> found;
  for (size_t i = 0; i < input.size(); ++i)
    for (const SourcePlace &place : input.placesOfLine(i))
      if (samePlace(place, wanted) && !llvm::is_contained(found, place))
        found.push_back(place);
  if (found.empty()) {
    why = "line " + std::to_string(line) + " of " + name + " holds no op: `" +
          fileLines[line - 1].trim().str() + "`";
    return {};
  }
  if (column == 0)
    return found;
  // The op that starts last at or before the column (else the first).
  const SourceLocation *best = nullptr;
  for (const SourceLocation &place : found)
    if (place.column <= column && (!best || place.column > best->column))
      best = &place;
  if (!best)
    for (const SourceLocation &place : found)
      if (!best || place.column < best->column)
        best = &place;
  return {*best};
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
