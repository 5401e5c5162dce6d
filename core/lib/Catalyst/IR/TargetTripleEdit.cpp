//===- TargetTripleEdit.cpp - set catalyst.target.triple in the source ----===//
#include "ExecutorStudio/Catalyst/IR/TargetTripleEdit.h"
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using llvm::StringRef;

namespace catalyst {

std::string getEffectiveTargetTriple(ModuleOp target) {
  std::optional<TargetInfo> info = getTarget(target);
  return info && info->triple ? *info->triple : llvm::sys::getProcessTriple();
}

bool isOtherArchitecture(StringRef compiled, StringRef runs) {
  llvm::Triple a(compiled), b(runs);
  return a.getArch() != b.getArch() ||
         a.getObjectFormat() != b.getObjectFormat();
}

namespace {
llvm::Error problem(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Reads the header of a module from `pos`, skipping what MLIR skips:
/// white space and `//` comments.
struct HeaderScanner {
  StringRef text;
  size_t pos;

  void skipSpace() {
    while (pos < text.size()) {
      if (isspace(static_cast<unsigned char>(text[pos]))) {
        ++pos;
      } else if (text.substr(pos).starts_with("//")) {
        pos = text.find('\n', pos);
        if (pos == StringRef::npos)
          pos = text.size();
      } else {
        break;
      }
    }
  }
  bool consume(StringRef word) {
    skipSpace();
    if (!text.substr(pos).starts_with(word))
      return false;
    pos += word.size();
    return true;
  }
  /// Skips a string literal starting at pos ("..." with escapes).
  void skipString() {
    for (++pos; pos < text.size() && text[pos] != '"'; ++pos)
      if (text[pos] == '\\')
        ++pos;
    ++pos;
  }
  /// From pos: with `toSeparator`, the offset of the next ',' or '}' at
  /// this nesting level (the end of an attribute value); without, just past
  /// the bracket that closes the one at pos. npos when the text ends first.
  size_t scan(bool toSeparator) {
    int depth = 0;
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '"') {
        skipString();
        continue;
      }
      if (toSeparator && depth == 0 && (c == ',' || c == '}'))
        return pos;
      if (StringRef("{[(<").contains(c))
        ++depth;
      else if (StringRef("}])>").contains(c) && --depth == 0 && !toSeparator)
        return ++pos;
      ++pos;
    }
    return StringRef::npos;
  }
};
} // namespace

llvm::Expected<SourceEdit> getSetTargetTripleEdit(StringRef source,
                                                  size_t moduleOffset,
                                                  ModuleOp target,
                                                  StringRef triple) {
  std::string name = "@" + getTargetName(target);
  if (!isTarget(target))
    return problem("module " + name + " is not a catalyst.target module");
  HeaderScanner scan{source, moduleOffset};
  if (!scan.consume("module"))
    return problem("no `module` keyword where " + name + " starts");
  scan.skipSpace();
  if (scan.pos < source.size() && source[scan.pos] == '@') {
    // @name or @"name"
    ++scan.pos;
    if (scan.pos < source.size() && source[scan.pos] == '"')
      scan.skipString();
    else
      while (scan.pos < source.size() &&
             (isalnum(static_cast<unsigned char>(source[scan.pos])) ||
              StringRef("_$.-").contains(source[scan.pos])))
        ++scan.pos;
  }
  if (!scan.consume("attributes"))
    return problem("module " + name +
                   " has no `attributes {...}` in its header");
  scan.skipSpace();
  if (scan.pos >= source.size() || source[scan.pos] != '{')
    return problem("module " + name + ": `attributes` is not followed by {");
  size_t dictStart = scan.pos;
  size_t dictEnd = scan.scan(/*toSeparator=*/false);
  if (dictEnd == StringRef::npos)
    return problem("module " + name + ": its attributes do not end");

  // The new value of catalyst.target: the old entries and the triple.
  Builder builder(target.getContext());
  llvm::SmallVector<NamedAttribute> entries;
  if (auto old = target->getAttrOfType<DictionaryAttr>(attrs::kTarget))
    for (NamedAttribute entry : old)
      if (entry.getName() != "triple")
        entries.push_back(entry);
  entries.push_back(builder.getNamedAttr("triple", builder.getStringAttr(triple)));
  std::string value;
  llvm::raw_string_ostream os(value);
  builder.getDictionaryAttr(entries).print(os);

  // Find `catalyst.target` among the entries at the top of the dictionary.
  scan.pos = dictStart + 1;
  while (scan.pos < dictEnd) {
    scan.skipSpace();
    size_t keyStart = scan.pos;
    bool quoted = scan.pos < source.size() && source[scan.pos] == '"';
    if (quoted)
      scan.skipString();
    else
      while (scan.pos < dictEnd &&
             (isalnum(static_cast<unsigned char>(source[scan.pos])) ||
              StringRef("_$.-").contains(source[scan.pos])))
        ++scan.pos;
    StringRef key = source.slice(keyStart, scan.pos);
    if (quoted)
      key = key.drop_front().drop_back();
    if (key.empty())
      break;
    size_t keyEnd = scan.pos;
    scan.skipSpace();
    bool hasValue = scan.pos < dictEnd && source[scan.pos] == '=';
    size_t valueStart = StringRef::npos, valueEnd = keyEnd;
    if (hasValue) {
      ++scan.pos;
      scan.skipSpace();
      valueStart = scan.pos;
      valueEnd = scan.scan(/*toSeparator=*/true);
      if (valueEnd == StringRef::npos)
        break;
      // Trailing white space stays where it was.
      while (valueEnd > valueStart &&
             isspace(static_cast<unsigned char>(source[valueEnd - 1])))
        --valueEnd;
    }
    if (key == attrs::kTarget) {
      if (hasValue)
        return SourceEdit{valueStart, valueEnd - valueStart, value};
      // A unit catalyst.target: give it a value.
      return SourceEdit{keyEnd, 0, " = " + value};
    }
    scan.pos = hasValue ? scan.scan(/*toSeparator=*/true) : scan.pos;
    if (scan.pos == StringRef::npos || source[scan.pos] != ',')
      break;
    ++scan.pos;
  }
  return problem("module " + name + ": no catalyst.target entry in its header");
}

llvm::Expected<SourceEdit> getSetTargetTripleEdit(StringRef source,
                                                  ModuleOp target,
                                                  StringRef triple) {
  auto loc = dyn_cast<FileLineColLoc>(target.getLoc());
  if (!loc)
    return problem("module @" + getTargetName(target) +
                   " has no line and column in the source");
  // Lines and columns count from 1; columns in bytes.
  size_t offset = 0;
  for (unsigned line = 1; line < loc.getLine(); ++line) {
    offset = source.find('\n', offset);
    if (offset == StringRef::npos)
      return problem("module @" + getTargetName(target) +
                     " is past the end of the source");
    ++offset;
  }
  offset += loc.getColumn() - 1;
  if (offset > source.size())
    return problem("module @" + getTargetName(target) +
                   " is past the end of the source");
  return getSetTargetTripleEdit(source, offset, target, triple);
}

} // namespace catalyst
