//===- IrText.cpp - printed IR as lines -----------------------------------===//
#include "StudioModel/IrText.h"

#include "ExecutorStudio/Support/MlirLexer.h"

#include <algorithm>
#include <cctype>

namespace executor_studio::gui {

namespace {
using Kind = ScannedToken::Kind;

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
        while (end < results.size() && isIdentifierChar(results[end]))
          ++end;
        constants[std::string(results.substr(at + 1, end - at - 1))] = name;
      }
    }
  }
  // Rename the value and block ids among the line's tokens; copy the rest.
  size_t copied = 0;
  scanTokens(line, [&](const ScannedToken &token) {
    if (token.kind != Kind::ValueId && token.kind != Kind::BlockId)
      return;
    size_t at = static_cast<size_t>(token.text.data() - line.data());
    out.append(line.substr(copied, at - copied));
    copied = at + token.text.size();
    std::string_view name(token.text.data() + 1, token.text.size() - 1);
    if (token.kind == Kind::BlockId) {
      out += "^b";
      out += std::to_string(lookup(blocks, name));
      return;
    }
    // `%r#1`: the group's name, then the result number as it is.
    std::string_view number = name.substr(std::min(name.find('#'), name.size()));
    name.remove_suffix(number.size());
    key.assign(name);
    if (auto it = constants.find(key); it != constants.end()) {
      out += it->second;
    } else {
      out += "%v";
      out += std::to_string(lookup(values, name));
    }
    out.append(number);
  });
  out.append(line.substr(copied));
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
    bool boundary = i == 0 || !isIdentifierChar(line[i - 1]);
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

//===----------------------------------------------------------------------===//
// Lexical classes
//===----------------------------------------------------------------------===//

namespace {
bool isTypeWord(std::string_view w) {
  if (w == "index" || w == "memref" || w == "tensor" || w == "vector" ||
      w == "none" || w == "complex" || w == "tuple")
    return true;
  if (w.size() >= 2 && (w[0] == 'i' || w[0] == 'f' || w[0] == 'u' || w[0] == 's')) {
    size_t d = w[0] == 'u' || w[0] == 's' ? 2 : 1;
    if (d > 1 && (w.size() < 3 || w[1] != 'i'))
      return false;
    if (d >= w.size())
      return false;
    for (size_t i = d; i < w.size(); ++i)
      if (!std::isdigit(static_cast<unsigned char>(w[i])))
        return false;
    return true;
  }
  return false;
}
} // namespace

void classifyLine(std::string_view line, std::vector<IrSpan> &out) {
  out.clear();
  std::string_view op = opNameOfLine(line);
  size_t opBegin = op.empty() ? std::string_view::npos
                              : static_cast<size_t>(op.data() - line.data());
  auto push = [&](size_t b, size_t e, IrTokenClass kind) {
    if (e > b)
      out.push_back({static_cast<uint32_t>(b), static_cast<uint32_t>(e), kind});
  };
  scanTokens(line, [&](const ScannedToken &token) {
    size_t b = static_cast<size_t>(token.text.data() - line.data());
    size_t e = b + token.text.size();
    switch (token.kind) {
    case Kind::Comment:
      return push(b, e, IrTokenClass::Comment);
    case Kind::String:
      return push(b, e, IrTokenClass::String);
    case Kind::ValueId: {
      // `%r#1`: the group's name, then the result number.
      size_t hash = std::min(token.text.find('#'), token.text.size());
      push(b, b + hash, IrTokenClass::Value);
      return push(b + hash, e, IrTokenClass::Alias);
    }
    case Kind::BlockId:
      return push(b, e, IrTokenClass::Block);
    case Kind::SymbolRef:
      return push(b, e, IrTokenClass::Symbol);
    case Kind::AttributeAlias:
    case Kind::TypeAlias:
      return push(b, e, IrTokenClass::Alias);
    case Kind::Number: {
      // A sign is punctuation.
      size_t digits = token.text[0] == '-' || token.text[0] == '+' ? 1 : 0;
      push(b, b + digits, IrTokenClass::Text);
      return push(b + digits, e, IrTokenClass::Number);
    }
    case Kind::BareWord: {
      if (b == opBegin) {
        push(b, b + op.size(), IrTokenClass::Op);
        return push(b + op.size(), e, IrTokenClass::Text);
      }
      // A type name is a whole word: `i32`, not the `i32` of `foo.i32`.
      size_t word = b;
      while (word < e && (std::isalnum(static_cast<unsigned char>(line[word])) ||
                          line[word] == '_'))
        ++word;
      push(b, word,
           isTypeWord(line.substr(b, word - b)) ? IrTokenClass::Type
                                                : IrTokenClass::Text);
      return push(word, e, IrTokenClass::Text);
    }
    case Kind::Open:
    case Kind::Close:
    case Kind::Punctuation:
      return push(b, e, IrTokenClass::Text);
    }
  });
}

} // namespace executor_studio::gui
