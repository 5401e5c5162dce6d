//===- OpHistory.cpp - where an op went, pass by pass ---------------------===//
//
// Each kind of text names its places its own way; each is indexed once:
// MLIR's location aliases (`#loc3 = loc(...)`, printed after the op), LLVM
// IR's metadata (`!12 = !DILocation(line: 5, column: 8, scope: !7)` and the
// scopes and files it leads to), and for assembly the `.loc` each line
// follows.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/OpHistory.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <unordered_map>

using namespace executor_studio;
using llvm::StringRef;

namespace {

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.' || c == '-';
}

/// The digits at `s[i]` as a number; advances `i`. None without digits.
std::optional<unsigned> readNumber(StringRef s, size_t &i) {
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

/// A quoted string at `s[i]` (at the `"`), unescaped as MLIR, LLVM IR and
/// assembly print file names (`\\`, `\"`, `\XX` hex); advances `i` past it.
std::string readQuoted(StringRef s, size_t &i) {
  std::string out;
  for (++i; i < s.size() && s[i] != '"'; ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      if (i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
          std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
        unsigned value = 0;
        s.substr(i + 1, 2).getAsInteger(16, value);
        out += static_cast<char>(value);
        i += 2;
        continue;
      }
      ++i;
    }
    out += s[i];
  }
  if (i < s.size())
    ++i; // the closing quote
  return out;
}

void addOnce(std::vector<SourcePlace> &out, SourcePlace place) {
  for (const SourcePlace &o : out)
    if (o == place)
      return;
  out.push_back(std::move(place));
}

//===--- MLIR ---------------------------------------------------------------===//

/// `#name = loc(...)` lines of a text, by name.
using AliasMap = llvm::StringMap<StringRef>;

void collectMlir(StringRef line, LocationAliasLookup lookupAlias, int depth,
                 llvm::StringMap<bool> &seen, std::vector<SourcePlace> &out) {
  // Inside `loc(`...`)` only: the rest of the line is the op.
  size_t at = 0;
  while ((at = line.find("loc(", at)) != StringRef::npos) {
    if (at > 0 && isIdentifierChar(line[at - 1])) {
      at += 4;
      continue;
    }
    int parens = 0;
    size_t i = at + 3;
    while (i < line.size()) {
      char c = line[i];
      if (c == '"') {
        // A string: a file name when `:line:column` follows.
        std::string name = readQuoted(line, i);
        size_t j = i;
        if (j < line.size() && line[j] == ':') {
          ++j;
          std::optional<unsigned> l = readNumber(line, j);
          if (l && j < line.size() && line[j] == ':') {
            ++j;
            if (std::optional<unsigned> col = readNumber(line, j))
              if (!name.empty())
                addOnce(out, {name, *l, *col});
          }
        }
        continue;
      }
      if (c == '#') {
        size_t end = i + 1;
        while (end < line.size() && isIdentifierChar(line[end]))
          ++end;
        StringRef alias = line.slice(i, end);
        i = end;
        if (depth > 16 || !seen.try_emplace(alias, true).second)
          continue;
        if (std::optional<StringRef> location = lookupAlias(alias))
          collectMlir(*location, lookupAlias, depth + 1, seen, out);
        continue;
      }
      if (c == '(')
        ++parens;
      if (c == ')' && --parens == 0)
        break;
      ++i;
    }
    at = i;
  }
}

/// The alias a line defines (`#loc3 = loc(...)`), if it defines one.
std::optional<std::pair<StringRef, StringRef>> locationAlias(StringRef line) {
  if (!line.starts_with("#"))
    return std::nullopt;
  size_t end = 1;
  while (end < line.size() && isIdentifierChar(line[end]))
    ++end;
  StringRef rest = line.substr(end);
  if (!rest.starts_with(" = loc("))
    return std::nullopt;
  return std::make_pair(line.take_front(end), rest.drop_front(3));
}

//===--- LLVM IR ------------------------------------------------------------===//

/// The value of `key: ...` in a metadata node's fields (`line: 5`,
/// `file: !3`, `filename: "x.mlir"`), up to the `,` or `)` that ends it.
std::optional<StringRef> field(StringRef node, StringRef key) {
  size_t at = 0;
  while ((at = node.find(key, at)) != StringRef::npos) {
    bool starts = at > 0 && (node[at - 1] == '(' || node[at - 1] == ' ');
    size_t after = at + key.size();
    if (!starts || !node.substr(after).starts_with(": ")) {
      at = after;
      continue;
    }
    after += 2;
    if (after < node.size() && node[after] == '"') {
      size_t i = after;
      readQuoted(node, i);
      return node.slice(after, i);
    }
    size_t end = node.find_first_of(",)", after);
    return node.slice(after, end == StringRef::npos ? node.size() : end).trim();
  }
  return std::nullopt;
}

/// `!12` -> 12.
std::optional<unsigned> metadataId(StringRef ref) {
  unsigned id;
  if (!ref.consume_front("!") || ref.getAsInteger(10, id))
    return std::nullopt;
  // The two largest are the index's own empty and tombstone keys
  // (DenseMap), which name no node; LLVM never numbers that many.
  if (id >= llvm::DenseMapInfo<unsigned>::getTombstoneKey())
    return std::nullopt;
  return id;
}

std::string unquote(StringRef quoted) {
  size_t i = 0;
  if (quoted.empty() || quoted[0] != '"')
    return quoted.str();
  return readQuoted(quoted, i);
}

std::string joinPath(StringRef directory, StringRef file) {
  if (directory.empty() || llvm::sys::path::is_absolute(file))
    return file.str();
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, file);
  return std::string(path);
}

//===--- Assembly ---------------------------------------------------------===//

/// Whether a line of assembly is an instruction (not a label, a directive,
/// a comment or blank).
bool isInstruction(StringRef line) {
  StringRef t = line.trim();
  if (t.empty() || t[0] == '.' || t[0] == '#' || t[0] == ';' || t[0] == '@' ||
      t.starts_with("//"))
    return false;
  // A label (`square:`, `.LBB0_1:`), maybe with a comment after it.
  size_t end = 0;
  while (end < t.size() && (isIdentifierChar(t[end]) || t[end] == '"'))
    ++end;
  if (end < t.size() && t[end] == ':')
    return false;
  return std::isalpha(static_cast<unsigned char>(t[0])) != 0;
}

} // namespace

bool executor_studio::samePlace(const SourcePlace &a, const SourcePlace &b) {
  if (a.line != b.line)
    return false;
  if (a.column != b.column && a.column != 0 && b.column != 0)
    return false;
  if (a.file == b.file)
    return true;
  auto endsWith = [](StringRef longer, StringRef shorter) {
    return longer.size() > shorter.size() && longer.ends_with(shorter) &&
           longer[longer.size() - shorter.size() - 1] == '/';
  };
  return endsWith(a.file, b.file) || endsWith(b.file, a.file);
}

struct SnapshotPlaces::Index {
  SnapshotKind kind;
  std::vector<StringRef> lines;
  // MLIR: the location aliases, and whether a line is one.
  AliasMap aliases;
  std::vector<bool> isAlias;
  // LLVM IR: metadata nodes by id.
  llvm::DenseMap<unsigned, StringRef> metadata;
  // Assembly: the place each line's instruction has (none: -1), and the
  // places of the `.loc`s.
  std::vector<int> asmPlace;
  std::vector<SourcePlace> asmPlaces;

  /// The text of node `id`, if the snapshot defines it. Every lookup goes
  /// here: the two largest ids are the map's own empty and tombstone keys,
  /// whose buckets `find` would return as if they were nodes.
  std::optional<StringRef> node(unsigned id) const {
    if (id >= llvm::DenseMapInfo<unsigned>::getTombstoneKey())
      return std::nullopt;
    auto found = metadata.find(id);
    if (found == metadata.end())
      return std::nullopt;
    return found->second;
  }

  /// The file of scope node `id` (its `file:` or its scope's).
  std::optional<std::string> fileOfScope(unsigned id, int depth) const {
    std::optional<StringRef> scopeNode = node(id);
    if (!scopeNode || depth > 32)
      return std::nullopt;
    std::optional<StringRef> file = field(*scopeNode, "file");
    if (!file) {
      if (std::optional<StringRef> scope = field(*scopeNode, "scope"))
        if (std::optional<unsigned> scopeId = metadataId(*scope))
          return fileOfScope(*scopeId, depth + 1);
      return std::nullopt;
    }
    std::optional<unsigned> fileId = metadataId(*file);
    std::optional<StringRef> fileNode = fileId ? node(*fileId) : std::nullopt;
    if (!fileNode)
      return std::nullopt;
    std::string name = unquote(field(*fileNode, "filename").value_or(""));
    std::string directory =
        unquote(field(*fileNode, "directory").value_or(""));
    if (name.empty())
      return std::nullopt;
    return joinPath(directory, name);
  }

  /// The places of `!dbg !id`: a DILocation and the places it was inlined
  /// at, or a DISubprogram's line.
  void placesOfMetadata(unsigned id, int depth, std::vector<SourcePlace> &out) const {
    std::optional<StringRef> found = node(id);
    if (!found || depth > 32)
      return;
    StringRef text = *found;
    std::optional<unsigned> line;
    if (std::optional<StringRef> l = field(text, "line")) {
      unsigned n;
      if (!l->getAsInteger(10, n))
        line = n;
    }
    if (!line || *line == 0)
      return;
    unsigned column = 0;
    if (std::optional<StringRef> c = field(text, "column"))
      if (c->getAsInteger(10, column))
        column = 0;
    std::optional<std::string> file;
    if (text.starts_with("!DILocation(")) {
      if (std::optional<StringRef> scope = field(text, "scope"))
        if (std::optional<unsigned> scopeId = metadataId(*scope))
          file = fileOfScope(*scopeId, 0);
    } else if (text.starts_with("!DISubprogram(")) {
      file = fileOfScope(id, 0);
      column = 0;
    } else {
      return;
    }
    if (file)
      addOnce(out, {*file, *line, column});
    if (std::optional<StringRef> inlined = field(text, "inlinedAt"))
      if (std::optional<unsigned> inlinedId = metadataId(*inlined))
        placesOfMetadata(*inlinedId, depth + 1, out);
  }
};

SnapshotPlaces::SnapshotPlaces(StringRef text, SnapshotKind kind)
    : index(std::make_unique<Index>()) {
  index->kind = kind;
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n');
  if (!lines.empty() && lines.back().empty() && text.ends_with("\n"))
    lines.pop_back();
  index->lines.assign(lines.begin(), lines.end());
  switch (kind) {
  case SnapshotKind::MLIR:
    index->isAlias.resize(index->lines.size());
    for (size_t i = 0; i < index->lines.size(); ++i)
      if (auto alias = locationAlias(index->lines[i])) {
        index->aliases[alias->first] = alias->second;
        index->isAlias[i] = true;
      }
    break;
  case SnapshotKind::LLVMIR:
    for (StringRef line : index->lines) {
      if (!line.starts_with("!"))
        continue;
      size_t eq = line.find(" = ");
      if (eq == StringRef::npos)
        continue;
      std::optional<unsigned> id = metadataId(line.take_front(eq));
      if (!id)
        continue;
      StringRef node = line.substr(eq + 3);
      node.consume_front("distinct ");
      index->metadata[*id] = node;
    }
    break;
  case SnapshotKind::Assembly: {
    index->asmPlace.assign(index->lines.size(), -1);
    std::unordered_map<unsigned, std::string> files;
    int current = -1;
    for (size_t i = 0; i < index->lines.size(); ++i) {
      StringRef t = index->lines[i].trim();
      if (t.starts_with(".file")) {
        // `.file 1 "dir" "name"` (DWARF 5 also numbers 0), `.file 1 "name"`.
        StringRef rest = t.drop_front(5).ltrim();
        size_t j = 0;
        std::optional<unsigned> number = readNumber(rest, j);
        if (!number)
          continue;
        std::vector<std::string> strings;
        while (strings.size() < 2) {
          while (j < rest.size() && rest[j] == ' ')
            ++j;
          if (j >= rest.size() || rest[j] != '"')
            break;
          strings.push_back(readQuoted(rest, j));
        }
        if (strings.size() == 2)
          files[*number] = joinPath(strings[0], strings[1]);
        else if (strings.size() == 1)
          files[*number] = strings[0];
        continue;
      }
      if (t.starts_with(".loc") && (t.size() == 4 || t[4] == ' ' || t[4] == '\t')) {
        // `.loc FILE LINE COLUMN [flags]`.
        StringRef rest = t.drop_front(4).ltrim();
        size_t j = 0;
        std::optional<unsigned> file = readNumber(rest, j);
        while (j < rest.size() && (rest[j] == ' ' || rest[j] == '\t'))
          ++j;
        std::optional<unsigned> line = readNumber(rest, j);
        while (j < rest.size() && (rest[j] == ' ' || rest[j] == '\t'))
          ++j;
        std::optional<unsigned> column = readNumber(rest, j);
        auto name = file ? files.find(*file) : files.end();
        if (!line || *line == 0 || name == files.end()) {
          current = -1;
          continue;
        }
        index->asmPlaces.push_back({name->second, *line, column.value_or(0)});
        current = static_cast<int>(index->asmPlaces.size()) - 1;
        continue;
      }
      // A function's end: what follows is not its code.
      if (t.starts_with(".cfi_endproc") || t.starts_with(".Lfunc_end") ||
          t.starts_with(".size") || t.starts_with(".section")) {
        current = -1;
        continue;
      }
      if (isInstruction(t))
        index->asmPlace[i] = current;
    }
    break;
  }
  }
}

SnapshotPlaces::~SnapshotPlaces() = default;
SnapshotPlaces::SnapshotPlaces(SnapshotPlaces &&) noexcept = default;
SnapshotPlaces &SnapshotPlaces::operator=(SnapshotPlaces &&) noexcept = default;

size_t SnapshotPlaces::size() const { return index->lines.size(); }

StringRef SnapshotPlaces::line(size_t line) const {
  return line < index->lines.size() ? index->lines[line] : StringRef();
}

std::vector<SourcePlace>
executor_studio::findMlirPlaces(StringRef line, LocationAliasLookup lookupAlias) {
  std::vector<SourcePlace> out;
  llvm::StringMap<bool> seen;
  collectMlir(line, lookupAlias, 0, seen, out);
  return out;
}

std::vector<SourcePlace> SnapshotPlaces::placesOfLine(size_t line) const {
  std::vector<SourcePlace> out;
  if (line >= index->lines.size())
    return out;
  StringRef text = index->lines[line];
  switch (index->kind) {
  case SnapshotKind::MLIR: {
    if (index->isAlias[line] || !text.contains("loc("))
      break;
    const AliasMap &aliases = index->aliases;
    out = findMlirPlaces(text, [&](StringRef alias) -> std::optional<StringRef> {
      auto found = aliases.find(alias);
      if (found == aliases.end())
        return std::nullopt;
      return found->second;
    });
    break;
  }
  case SnapshotKind::LLVMIR: {
    if (text.starts_with("!") || text.starts_with(";"))
      break;
    size_t at = text.rfind("!dbg !");
    if (at == StringRef::npos)
      break;
    size_t i = at + 6;
    if (std::optional<unsigned> id = readNumber(text, i))
      index->placesOfMetadata(*id, 0, out);
    break;
  }
  case SnapshotKind::Assembly:
    if (index->asmPlace[line] >= 0)
      out.push_back(index->asmPlaces[index->asmPlace[line]]);
    break;
  }
  return out;
}

std::vector<unsigned>
SnapshotPlaces::linesOf(llvm::ArrayRef<SourcePlace> places) const {
  std::vector<unsigned> lines;
  if (places.empty())
    return lines;
  for (size_t i = 0; i < index->lines.size(); ++i) {
    // Most lines name no place at all: skip them before any parsing.
    StringRef text = index->lines[i];
    if ((index->kind == SnapshotKind::MLIR && !text.contains("loc(")) ||
        (index->kind == SnapshotKind::LLVMIR && !text.contains("!dbg !")) ||
        (index->kind == SnapshotKind::Assembly && index->asmPlace[i] < 0))
      continue;
    for (const SourcePlace &found : placesOfLine(i))
      if (llvm::any_of(places, [&](const SourcePlace &p) { return samePlace(p, found); })) {
        lines.push_back(static_cast<unsigned>(i));
        break;
      }
  }
  return lines;
}

llvm::ArrayRef<unsigned> SourceLineMap::stepLines(unsigned line) const {
  int at = rank(line);
  if (at < 0)
    return {};
  return stepLinesOf[static_cast<size_t>(at)];
}

int SourceLineMap::rank(unsigned line) const {
  auto it = std::lower_bound(sourceLines.begin(), sourceLines.end(), line);
  if (it == sourceLines.end() || *it != line)
    return -1;
  return static_cast<int>(it - sourceLines.begin());
}

SourceLineMap executor_studio::mapSourceLines(StringRef text, SnapshotKind kind,
                                              StringRef file) {
  SnapshotPlaces places(text, kind);
  SourceLineMap map;
  map.sourceLinesOf.resize(places.size());
  SourcePlace wanted{file.str(), 0, 0};
  std::map<unsigned, std::vector<unsigned>> back;
  for (size_t i = 0; i < places.size(); ++i) {
    std::vector<unsigned> &lines = map.sourceLinesOf[i];
    for (const SourcePlace &place : places.placesOfLine(i)) {
      wanted.line = place.line;
      if (place.line == 0 || !samePlace(place, wanted))
        continue;
      lines.push_back(place.line);
      // An instruction's own line, not the lines it was inlined at or its
      // function's (the line table's first place is its DILocation's).
      if (kind != SnapshotKind::MLIR)
        break;
    }
    llvm::sort(lines);
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    for (unsigned line : lines)
      back[line].push_back(static_cast<unsigned>(i));
  }
  for (auto &[line, steps] : back) {
    map.sourceLines.push_back(line);
    map.stepLinesOf.push_back(std::move(steps));
  }
  return map;
}

std::vector<OpHistoryStep>
executor_studio::opHistory(const Recording &recording,
                           llvm::ArrayRef<SourcePlace> places) {
  std::vector<OpHistoryStep> steps;
  // Steps that changed nothing share their text: each text is searched once.
  llvm::DenseMap<const std::string *, std::vector<unsigned>> found;
  auto linesIn = [&](const IRText &ir, SnapshotKind kind) {
    const std::string *text = ir.get();
    auto it = found.find(text);
    if (it != found.end())
      return it->second;
    std::vector<unsigned> lines = SnapshotPlaces(*text, kind).linesOf(places);
    found[text] = lines;
    return lines;
  };
  if (recording.inputIR) {
    OpHistoryStep step;
    step.lines = linesIn(recording.inputIR, SnapshotKind::MLIR);
    steps.push_back(std::move(step));
  }
  for (const Snapshot &snapshot : recording.snapshots) {
    if (snapshot.ir) {
      OpHistoryStep step;
      step.snapshot = &snapshot;
      step.lines = linesIn(snapshot.ir, snapshot.kind);
      steps.push_back(std::move(step));
    }
    for (const Snapshot &nested : snapshot.nested) {
      if (!nested.ir)
        continue;
      std::vector<unsigned> lines = linesIn(nested.ir, nested.kind);
      if (lines.empty())
        continue;
      OpHistoryStep step;
      step.snapshot = &nested;
      step.parent = &snapshot;
      step.lines = std::move(lines);
      steps.push_back(std::move(step));
    }
  }
  return steps;
}
