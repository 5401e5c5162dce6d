//===- IrText.h - printed IR as lines ---------------------------*- C++ -*-===//
//
// Printed IR as an indexable list of lines, and the line transforms the diff
// offers: SSA names normalised to their order of definition, `loc(...)`
// hidden; and the lexical classes the views colour. Plain strings and the
// project's MLIR lexer only: no MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_IRTEXT_H
#define STUDIOMODEL_IRTEXT_H

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace executor_studio::gui {

/// How lines are prepared before they are diffed and shown.
struct LineOptions {
  /// `%arg0`, `%5`, `%sum` become `%v0`, `%v1`... in order of first use,
  /// counted from each function; `^bb3` becomes `^b0`...
  bool normaliseSsaNames = false;
  /// Drops ` loc(...)` and `#locN = loc(...)` alias lines.
  bool hideLocations = false;

  bool operator==(const LineOptions &o) const {
    return normaliseSsaNames == o.normaliseSsaNames &&
           hideLocations == o.hideLocations;
  }
  bool operator!=(const LineOptions &o) const { return !(*this == o); }
};

/// Lines of a text, stored once; each remembers the 1-based line of the
/// original text it came from.
class TextLines {
public:
  TextLines() = default;
  /// Splits `text` on '\n' (a trailing newline adds no empty line) and
  /// applies `options` line by line.
  static TextLines prepare(std::string_view text, const LineOptions &options = {});

  size_t size() const { return starts.size(); }
  bool empty() const { return starts.empty(); }
  std::string_view line(size_t i) const {
    return std::string_view(storage.data() + starts[i], lengths[i]);
  }
  /// The 1-based line of the original text that line `i` shows.
  uint32_t sourceLine(size_t i) const { return sources[i]; }
  /// The index of the first line showing original line `line` or a later
  /// one (size() when none).
  size_t indexOfSourceLine(uint32_t line) const;
  /// The longest line, in characters.
  size_t maxLength() const { return longest; }
  /// These lines, numbered by `origins` (for each line of the original
  /// text, 1-based, the line it stands for: the structural diff's aligned
  /// text, whose moved functions stand for lines elsewhere in the printed
  /// snapshot). indexOfSourceLine does not apply to the result.
  TextLines renumbered(const std::vector<uint32_t> &origins) const {
    TextLines copy = *this;
    for (uint32_t &source : copy.sources)
      if (source >= 1 && source <= origins.size())
        source = origins[source - 1];
    return copy;
  }

private:
  std::string storage;
  std::vector<uint32_t> starts;
  std::vector<uint32_t> lengths;
  std::vector<uint32_t> sources;
  size_t longest = 0;
};

/// Renames SSA values and block labels of consecutive lines to their order
/// of first appearance; restarts at each function. The results of constant
/// ops (`arith.constant`, `llvm.mlir.constant`, ...) are named after their
/// value instead (`%c[5 : i32]`) and take no number, so constants that a
/// pass moves or renumbers change neither their uses nor the numbers of
/// the other values.
class SsaNormaliser {
public:
  /// Appends the normalised `line` to `out`.
  void apply(std::string_view line, std::string &out);

private:
  std::unordered_map<std::string, uint32_t> values, blocks;
  std::unordered_map<std::string, std::string> constants;
  std::string key;
  uint32_t lookup(std::unordered_map<std::string, uint32_t> &table,
                  std::string_view name);
};

/// What a piece of a printed line is, for colouring.
enum class IrTokenClass {
  Text,
  Op,
  Value,
  Block,
  Symbol,
  Alias,
  Type,
  Number,
  String,
  Comment
};
/// Columns [begin, end) of a line and what they are.
struct IrSpan {
  uint32_t begin, end;
  IrTokenClass kind;
};
/// Splits `line` into spans of MLIR's lexical classes (the tokens of the
/// project's MLIR lexer, Support/MlirLexer.h; the op name of opNameOfLine;
/// builtin type names). White space is in no span.
void classifyLine(std::string_view line, std::vector<IrSpan> &out);

/// `line` without ` loc(...)` (balanced parentheses, strings respected).
std::string stripLocations(std::string_view line);
/// Whether `line` is a location alias definition (`#loc3 = loc(...)`).
bool isLocationAlias(std::string_view line);

/// The operation a printed line starts (`%0 = arith.addi %a, %b : i32` is
/// `arith.addi`, `func.func @f(...)` is `func.func`, `"foo.bar"() ...` is
/// `foo.bar`); empty for lines that start none (`}`, `^bb0:`, attributes).
std::string_view opNameOfLine(std::string_view line);
/// Whether `line` starts op `name`; a name printed without its dialect
/// (`return` inside `func.func`) matches `func.return`.
bool lineHasOp(std::string_view line, std::string_view name);
/// Case-insensitive substring search; returns the position or npos.
size_t findCaseInsensitive(std::string_view haystack, std::string_view needle,
                           size_t from = 0);

} // namespace executor_studio::gui

#endif // STUDIOMODEL_IRTEXT_H
