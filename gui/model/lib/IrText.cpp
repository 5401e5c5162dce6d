//===- IrText.cpp - printed IR as lines -----------------------------------===//
#include "StudioModel/IrText.h"

#include <algorithm>
#include <cctype>

namespace executor_studio::gui {

namespace {
bool isIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.' || c == '-';
}
bool isOpNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.';
}
std::string_view trimLeft(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
    ++i;
  return s.substr(i);
}
/// The end of the string literal starting at `at` (on the opening quote):
/// the index after its closing quote.
size_t skipString(std::string_view s, size_t at) {
  size_t i = at + 1;
  while (i < s.size()) {
    if (s[i] == '\\')
      i += 2;
    else if (s[i] == '"')
      return i + 1;
    else
      ++i;
  }
  return s.size();
}
} // namespace

//===----------------------------------------------------------------------===//
// TextLines
//===----------------------------------------------------------------------===//

TextLines TextLines::prepare(std::string_view text, const LineOptions &options) {
  TextLines lines;
  bool transform = options.normaliseSsaNames || options.hideLocations;
  lines.storage.reserve(transform ? text.size() + text.size() / 8 : text.size());
  size_t count = std::count(text.begin(), text.end(), '\n') + 1;
  lines.starts.reserve(count);
  lines.lengths.reserve(count);
  lines.sources.reserve(count);
  SsaNormaliser normaliser;
  std::string scratch;
  size_t at = 0;
  uint32_t source = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    at = end + 1;
    ++source;
    if (options.hideLocations && isLocationAlias(line))
      continue;
    // Assembly is tab-separated; the views draw no tabs: expand them to
    // the next column of 8.
    std::string expanded;
    if (line.find('\t') != std::string_view::npos) {
      for (char c : line)
        if (c == '\t')
          expanded.append(8 - expanded.size() % 8, ' ');
        else
          expanded.push_back(c);
      line = expanded;
    }
    size_t start = lines.storage.size();
    if (!transform) {
      lines.storage.append(line);
    } else {
      std::string stripped;
      std::string_view shown = line;
      if (options.hideLocations && line.find("loc(") != std::string_view::npos) {
        stripped = stripLocations(line);
        shown = stripped;
      }
      if (options.normaliseSsaNames)
        normaliser.apply(shown, lines.storage);
      else
        lines.storage.append(shown);
    }
    size_t length = lines.storage.size() - start;
    lines.starts.push_back(static_cast<uint32_t>(start));
    lines.lengths.push_back(static_cast<uint32_t>(length));
    lines.sources.push_back(source);
    lines.longest = std::max(lines.longest, length);
  }
  return lines;
}

size_t TextLines::indexOfSourceLine(uint32_t line) const {
  return std::lower_bound(sources.begin(), sources.end(), line) -
         sources.begin();
}

//===----------------------------------------------------------------------===//
// SSA names
//===----------------------------------------------------------------------===//

uint32_t SsaNormaliser::lookup(std::unordered_map<std::string, uint32_t> &table,
                               std::string_view name) {
  key.assign(name);
  return table.emplace(key, static_cast<uint32_t>(table.size())).first->second;
}

void SsaNormaliser::apply(std::string_view line, std::string &out) {
  std::string_view op = opNameOfLine(line);
  if (op.size() >= 4 && op.substr(op.size() - 4) == "func") {
    values.clear();
    blocks.clear();
    constants.clear();
  }
  // `%c0_i32 = arith.constant 0 : i32`: named after its value.
  if (op.size() >= 8 && op.substr(op.size() - 8) == "constant") {
    size_t opAt = static_cast<size_t>(op.data() - line.data());
    size_t eq = line.substr(0, opAt).find('=');
    if (eq != std::string_view::npos) {
      std::string_view value = line.substr(opAt + op.size());
      size_t b = value.find_first_not_of(' ');
      size_t e = value.find_last_not_of(' ');
      std::string name = "%c[" +
                         std::string(b == std::string_view::npos
                                         ? std::string_view()
                                         : value.substr(b, e - b + 1)) +
                         "]";
      std::string_view results = line.substr(0, eq);
      for (size_t at = results.find('%'); at != std::string_view::npos;
           at = results.find('%', at + 1)) {
        size_t end = at + 1;
        while (end < results.size() && isIdChar(results[end]))
          ++end;
        constants[std::string(results.substr(at + 1, end - at - 1))] = name;
      }
    }
  }
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == '"') {
      size_t end = skipString(line, i);
      out.append(line.substr(i, end - i));
      i = end;
      continue;
    }
    if ((c == '%' || c == '^') && i + 1 < line.size() && isIdChar(line[i + 1])) {
      size_t end = i + 1;
      while (end < line.size() && isIdChar(line[end]))
        ++end;
      std::string_view name = line.substr(i + 1, end - i - 1);
      if (c == '%') {
        key.assign(name);
        if (auto it = constants.find(key); it != constants.end()) {
          out += it->second;
        } else {
          out += "%v";
          out += std::to_string(lookup(values, name));
        }
      } else {
        out += "^b";
        out += std::to_string(lookup(blocks, name));
      }
      i = end;
      continue;
    }
    out += c;
    ++i;
  }
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

bool isLocationAlias(std::string_view line) {
  std::string_view s = trimLeft(line);
  if (s.size() < 5 || s.substr(0, 4) != "#loc")
    return false;
  size_t eq = s.find('=');
  if (eq == std::string_view::npos)
    return false;
  return trimLeft(s.substr(eq + 1)).substr(0, 4) == "loc(";
}

std::string stripLocations(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == '"') {
      size_t end = skipString(line, i);
      out.append(line.substr(i, end - i));
      i = end;
      continue;
    }
    bool boundary = i == 0 || !isIdChar(line[i - 1]);
    if (c == 'l' && boundary && line.substr(i, 4) == "loc(") {
      // Skip to the matching parenthesis.
      size_t j = i + 4;
      int depth = 1;
      while (j < line.size() && depth > 0) {
        if (line[j] == '"') {
          j = skipString(line, j);
          continue;
        }
        if (line[j] == '(')
          ++depth;
        else if (line[j] == ')')
          --depth;
        ++j;
      }
      while (!out.empty() && out.back() == ' ')
        out.pop_back();
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Operation names
//===----------------------------------------------------------------------===//

std::string_view opNameOfLine(std::string_view line) {
  std::string_view s = trimLeft(line);
  if (s.empty())
    return {};
  if (s[0] == '%') {
    // Results: `%a, %b:2 = op`.
    size_t eq = s.find(" = ");
    if (eq == std::string_view::npos)
      return {};
    s = trimLeft(s.substr(eq + 3));
    if (s.empty())
      return {};
  }
  if (s[0] == '"') {
    size_t end = s.find('"', 1);
    if (end == std::string_view::npos)
      return {};
    return s.substr(1, end - 1);
  }
  if (!std::isalpha(static_cast<unsigned char>(s[0])) && s[0] != '_')
    return {};
  size_t end = 0;
  while (end < s.size() && isOpNameChar(s[end]))
    ++end;
  std::string_view name = s.substr(0, end);
  if (name == "attributes" || name == "loc" || name == "ins" || name == "outs")
    return {};
  return name;
}

bool lineHasOp(std::string_view line, std::string_view name) {
  std::string_view op = opNameOfLine(line);
  if (op.empty() || name.empty())
    return false;
  if (op == name)
    return true;
  // `return` printed inside func.func stands for func.return.
  return op.find('.') == std::string_view::npos && name.size() > op.size() &&
         name[name.size() - op.size() - 1] == '.' &&
         name.substr(name.size() - op.size()) == op;
}

size_t findCaseInsensitive(std::string_view haystack, std::string_view needle,
                           size_t from) {
  if (needle.empty())
    return from <= haystack.size() ? from : std::string_view::npos;
  if (needle.size() > haystack.size())
    return std::string_view::npos;
  auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  char first = lower(needle[0]);
  for (size_t i = from; i + needle.size() <= haystack.size(); ++i) {
    if (lower(haystack[i]) != first)
      continue;
    size_t k = 1;
    while (k < needle.size() && lower(haystack[i + k]) == lower(needle[k]))
      ++k;
    if (k == needle.size())
      return i;
  }
  return std::string_view::npos;
}

} // namespace executor_studio::gui
