//===- SourceLocations.cpp - where a line of IR came from -------*- C++ -*-===//
#include "StudioModel/SourceLocations.h"

#include "StudioModel/IrText.h"

#include "ExecutorStudio/Support/MlirLexer.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

using namespace executor_studio::gui;

namespace {

/// The digits at `s[i]` as a number; advances `i`. None without digits.
std::optional<unsigned> readNumber(std::string_view s, size_t &i) {
  size_t start = i;
  unsigned long long value = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    value = value * 10 + (s[i] - '0');
    if (value > 0xffffffffull)
      value = 0xffffffffull;
    ++i;
  }
  if (i == start)
    return std::nullopt;
  return static_cast<unsigned>(value);
}

/// The `#name = loc(...)` line of `text` for alias `name`.
std::optional<std::string_view> findAliasLine(const TextLines &text,
                                              std::string_view name) {
  for (size_t i = text.size(); i-- > 0;) {
    std::string_view line = text.line(i);
    if (line.size() > name.size() && line.substr(0, name.size()) == name &&
        line.substr(name.size()).find(" = loc(") == 0)
      return line;
  }
  return std::nullopt;
}

void collect(std::string_view line, const TextLines *text, int depth,
             std::set<std::string> &aliasesSeen,
             std::vector<SourceLocation> &out) {
  // Inside `loc(`...`)` only: the rest of the line is the op.
  size_t at = 0;
  while ((at = line.find("loc(", at)) != std::string_view::npos) {
    if (at > 0 && executor_studio::isIdentifierChar(line[at - 1])) {
      at += 4;
      continue;
    }
    int parens = 0;
    size_t i = at + 3;
    for (; i < line.size(); ++i) {
      char c = line[i];
      if (c == '"') {
        // A string: a file name when `:line:column` follows.
        std::string name;
        for (++i; i < line.size() && line[i] != '"'; ++i) {
          if (line[i] == '\\' && i + 1 < line.size())
            ++i;
          name += line[i];
        }
        size_t j = i + 1;
        if (j < line.size() && line[j] == ':') {
          ++j;
          std::optional<unsigned> l = readNumber(line, j);
          if (l && j < line.size() && line[j] == ':') {
            ++j;
            if (std::optional<unsigned> c = readNumber(line, j)) {
              SourceLocation loc{name, *l, *c};
              bool known = false;
              for (const SourceLocation &o : out)
                known |= o == loc;
              if (!known && !name.empty())
                out.push_back(std::move(loc));
            }
          }
        }
        continue;
      }
      if (c == '#') {
        size_t end = i + 1;
        while (end < line.size() && executor_studio::isIdentifierChar(line[end]))
          ++end;
        std::string alias(line.substr(i, end - i));
        i = end - 1;
        if (!text || depth > 16 || !aliasesSeen.insert(alias).second)
          continue;
        if (std::optional<std::string_view> def = findAliasLine(*text, alias))
          collect(def->substr(alias.size()), text, depth + 1, aliasesSeen,
                  out);
        continue;
      }
      if (c == '(')
        ++parens;
      if (c == ')' && --parens == 0)
        break;
    }
    at = i;
  }
}
} // namespace

std::vector<SourceLocation>
executor_studio::gui::findSourceLocations(std::string_view line,
                                          const TextLines *text) {
  std::vector<SourceLocation> out;
  std::set<std::string> aliasesSeen;
  collect(line, text, 0, aliasesSeen, out);
  return out;
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
