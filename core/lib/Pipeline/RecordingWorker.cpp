//===- RecordingWorker.cpp - a recording made in a child process ----------===//
#include "ExecutorStudio/Pipeline/RecordingWorker.h"

#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BinaryStreamReader.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <list>
#include <mutex>
#include <thread>
#include <unordered_map>

using namespace executor_studio;
namespace json = llvm::json;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {
constexpr const char *kSeverityNames[] = {"error", "warning", "remark", "note"};

template <typename Enum, size_t N>
bool enumFromJSON(const json::Value &value, Enum &result,
                  const char *const (&names)[N], json::Path path) {
  std::optional<StringRef> text = value.getAsString();
  if (text)
    for (size_t i = 0; i < N; ++i)
      if (*text == names[i]) {
        result = static_cast<Enum>(i);
        return true;
      }
  path.report("not one of the names expected");
  return false;
}

/// The texts a worker wrote out of band, kept in a file of their own in the
/// temporary directory (moved out of the worker's, which goes with it) until
/// the last text of the recording that reads from it goes (the recording
/// replaced and out of the recording cache, the process ending). A text is
/// read from its place, checked against the file's size, the first time it
/// is asked for. (Not kept open: a cache of many recordings would hold as
/// many descriptors.)
class KeptTexts {
public:
  static llvm::Expected<std::shared_ptr<const KeptTexts>> keep(StringRef path) {
    llvm::SmallString<128> keptPath;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "executor-texts", "txt", keptPath))
      return llvm::createStringError(
          "cannot keep the recording's texts in the temporary directory: " +
          ec.message());
    auto kept = std::shared_ptr<KeptTexts>(new KeptTexts(keptPath.str().str()));
    if (std::error_code ec = llvm::sys::fs::rename(path, keptPath))
      return llvm::createStringError("cannot keep the recording's texts " +
                                     path.str() + ": " + ec.message());
    if (std::error_code ec = llvm::sys::fs::file_size(keptPath, kept->bytes))
      return llvm::createStringError("cannot read the size of the recording's texts " +
                                     kept->path + ": " + ec.message());
    return kept;
  }
  ~KeptTexts() { llvm::sys::fs::remove(path); }

  uint64_t size() const { return bytes; }

  /// Bytes [at, at + count) (checked against the size when the recording
  /// was read, and against the file's now); a text saying why when they
  /// cannot be read.
  std::string read(uint64_t at, uint64_t count) const {
    auto failed = [&](const std::string &why) {
      return "// cannot read this step's text from " + path + ": " + why + "\n";
    };
    llvm::Expected<llvm::sys::fs::file_t> file =
        llvm::sys::fs::openNativeFileForRead(path);
    if (!file)
      return failed(llvm::toString(file.takeError()));
    std::string text(count, '\0');
    uint64_t done = 0;
    std::string error;
    while (done < count && error.empty()) {
      llvm::Expected<size_t> got = llvm::sys::fs::readNativeFileSlice(
          *file, llvm::MutableArrayRef<char>(text.data() + done, count - done),
          at + done);
      if (!got)
        error = llvm::toString(got.takeError());
      else if (*got == 0)
        error = "the file ends before it";
      else
        done += *got;
    }
    llvm::sys::fs::closeFile(*file);
    return error.empty() ? text : failed(error);
  }

private:
  explicit KeptTexts(std::string path) : path(std::move(path)) {}
  std::string path;
  uint64_t bytes = 0;
};

/// Where a recording's texts are: bytes in memory, or a kept file whose
/// texts are read when asked for.
struct TextSource {
  StringRef bytes;
  std::shared_ptr<const KeptTexts> kept;

  uint64_t size() const { return kept ? kept->size() : bytes.size(); }
  /// Bytes [at, at + count), within size(), of `lines` lines.
  IRText text(uint64_t at, uint64_t count, uint64_t lines) const {
    if (!kept)
      return IRText(std::make_shared<const std::string>(bytes.substr(at, count).str()));
    return IRText::deferred(
        [kept = kept, at, count] { return kept->read(at, count); }, count,
        lines);
  }
};

/// The binary form of a recording (writeRecording): its version first, so
/// that another version is an error, not a misreading.
constexpr llvm::StringLiteral kRecordingMagic = "executor-studio-recording 1\n";

/// How a text is written: none (no text, or one not sent), the same text as
/// the one before (sent), or its place in the texts.
enum class TextTag : uint8_t { None, SameAsBefore, Placed };
/// Nested steps in nested steps, notes of notes: no deeper than this.
constexpr unsigned kMaxDepth = 4;
/// The fewest bytes a snapshot and a diagnostic take (empty strings and
/// lists, a time's 8 bytes).
constexpr uint64_t kMinSnapshotBytes = 18, kMinDiagnosticBytes = 7;

/// The text before, within one list of snapshots (each target's steps share
/// texts within the target only).
struct TextsBefore {
  IRText previous;
  bool previousSent = false;
};

/// Writes writeRecording's binary form: integers as ULEB128, a time as the
/// bits of its double (little-endian), a string as its size and its bytes.
class RecordingWriter {
public:
  RecordingWriter(llvm::raw_ostream &out, llvm::raw_ostream &texts)
      : out(out), texts(texts) {}

  void write(const Recording &recording,
             const std::optional<std::vector<int>> &irSnapshots) {
    auto send = [&](int snapshot) {
      return !irSnapshots || llvm::is_contained(*irSnapshots, snapshot);
    };
    out << kRecordingMagic;
    byte(recording.succeeded);
    real(recording.totalMilliseconds);
    number(recording.firstStep);
    TextsBefore before;
    text(recording.inputIR, send(-1), before);
    diagnostics(recording.diagnostics);
    number(recording.snapshots.size());
    for (const Snapshot &snapshot : recording.snapshots)
      this->snapshot(snapshot, nullptr, before,
                     send(static_cast<int>(snapshot.index)));
    // The output: the last text sent when it is that, else its own when
    // every text is sent.
    if (recording.outputIR && before.previousSent &&
        recording.outputIR.sameAs(before.previous)) {
      byte(static_cast<uint8_t>(TextTag::SameAsBefore));
    } else {
      TextsBefore none;
      text(recording.outputIR, !irSnapshots, none);
    }
  }

private:
  void number(uint64_t value) { llvm::encodeULEB128(value, out); }
  void byte(uint8_t value) { out << static_cast<char>(value); }
  void real(double value) {
    llvm::support::endian::write<uint64_t>(out, llvm::bit_cast<uint64_t>(value),
                                           llvm::endianness::little);
  }
  void string(StringRef value) {
    number(value.size());
    out << value;
  }

  void text(const IRText &ir, bool send, TextsBefore &before) {
    if (!ir || !send) {
      byte(static_cast<uint8_t>(TextTag::None));
    } else if (before.previousSent && ir.sameAs(before.previous)) {
      byte(static_cast<uint8_t>(TextTag::SameAsBefore));
    } else {
      const std::string &bytes = *ir;
      byte(static_cast<uint8_t>(TextTag::Placed));
      number(offset);
      number(bytes.size());
      number(ir.lines());
      texts << bytes;
      offset += bytes.size();
    }
    before.previous = ir;
    before.previousSent = ir && send;
  }

  void diagnostics(const std::vector<RecordedDiagnostic> &list) {
    number(list.size());
    for (const RecordedDiagnostic &diag : list) {
      byte(static_cast<uint8_t>(diag.severity));
      string(diag.message);
      string(diag.file);
      number(diag.line);
      number(diag.column);
      string(diag.pass);
      diagnostics(diag.notes);
    }
  }

  /// `snapshot` after `sibling` in its list (null: the first or a step of
  /// the recording itself).
  void snapshot(const Snapshot &snapshot, const Snapshot *sibling,
                TextsBefore &before, bool send) {
    // Its target first: a reader knows whether it shares texts with its
    // sibling before it reads its text.
    string(snapshot.target);
    if (sibling && sibling->target != snapshot.target)
      before = TextsBefore();
    number(snapshot.index);
    string(snapshot.pass);
    string(snapshot.options);
    string(snapshot.anchor);
    byte(snapshot.changed | snapshot.failed << 1 | snapshot.edited << 2);
    real(snapshot.milliseconds);
    byte(static_cast<uint8_t>(snapshot.kind));
    diagnostics(snapshot.diagnostics);
    text(snapshot.ir, send, before);
    number(snapshot.nested.size());
    TextsBefore nestedBefore;
    for (auto [i, step] : llvm::enumerate(snapshot.nested))
      this->snapshot(step, i ? &snapshot.nested[i - 1] : nullptr, nestedBefore,
                     send);
  }

  llvm::raw_ostream &out, &texts;
  uint64_t offset = 0;
};

/// Reads what RecordingWriter wrote, checking every count, size and place
/// against what is left before it is used.
class RecordingReader {
public:
  RecordingReader(StringRef bytes, TextSource texts)
      : in(bytes, llvm::endianness::little), texts(std::move(texts)) {}

  llvm::Expected<Recording> read() {
    Recording recording;
    if (!readRecording(recording))
      return llvm::createStringError("invalid recording at byte " +
                                     std::to_string(failedAt) + ": " + error);
    return recording;
  }

private:
  bool readRecording(Recording &recording) {
    StringRef magic;
    if (in.bytesRemaining() < kRecordingMagic.size() ||
        !accept(in.readFixedString(magic, kRecordingMagic.size())) ||
        magic != kRecordingMagic)
      return fail("not a recording of this version (" +
                  StringRef(kRecordingMagic).trim().str() + ")");
    uint64_t firstStep = 0, count = 0;
    TextsBefore before;
    if (!flag(recording.succeeded) || !real(recording.totalMilliseconds) ||
        !number(firstStep, uint64_t(1) << 30, "the first step") ||
        !text(recording.inputIR, before) ||
        !diagnostics(recording.diagnostics, 0) ||
        !elements(count, "snapshots", kMinSnapshotBytes))
      return false;
    recording.firstStep = static_cast<unsigned>(firstStep);
    recording.snapshots.reserve(count);
    for (uint64_t i = 0; i < count; ++i)
      if (!snapshot(recording.snapshots.emplace_back(), nullptr, before, 0))
        return false;
    uint8_t output = 0;
    if (!peekTag(output))
      return false;
    if (output == static_cast<uint8_t>(TextTag::SameAsBefore)) {
      (void)accept(in.readInteger(output));
      if (!before.previousSent)
        return fail("the output is the last text, but none was sent");
      recording.outputIR = before.previous;
    } else {
      TextsBefore none;
      if (!text(recording.outputIR, none))
        return false;
    }
    if (!in.empty())
      return fail(std::to_string(in.bytesRemaining()) +
                  " bytes after the recording");
    return true;
  }

  bool fail(const std::string &why) {
    if (error.empty()) {
      error = why;
      failedAt = in.getOffset();
    }
    return false;
  }
  bool accept(llvm::Error result) {
    if (!result)
      return true;
    llvm::consumeError(std::move(result));
    return fail("the recording ends early");
  }
  bool number(uint64_t &value, uint64_t max, StringRef what) {
    if (!accept(in.readULEB128(value)))
      return false;
    return value <= max || fail(what.str() + " is out of range");
  }
  /// A count of elements of at least `minBytes` each: no more than what is
  /// left can hold (a count read is reserved at once).
  bool elements(uint64_t &count, StringRef what, uint64_t minBytes) {
    return number(count, in.bytesRemaining() / minBytes,
                  ("the number of " + what).str());
  }
  bool byte(uint8_t &value, uint8_t max, StringRef what) {
    if (!accept(in.readInteger(value)))
      return false;
    return value <= max || fail(what.str() + " is out of range");
  }
  bool flag(bool &value) {
    uint8_t byte = 0;
    if (!this->byte(byte, 1, "a flag"))
      return false;
    value = byte;
    return true;
  }
  bool real(double &value) {
    uint64_t bits = 0;
    if (!accept(in.readInteger(bits)))
      return false;
    value = llvm::bit_cast<double>(bits);
    return true;
  }
  bool string(std::string &value) {
    uint64_t size = 0;
    StringRef bytes;
    if (!number(size, std::min<uint64_t>(in.bytesRemaining(), UINT32_MAX),
                "a string's size") ||
        !accept(in.readFixedString(bytes, static_cast<uint32_t>(size))))
      return false;
    value = bytes.str();
    return true;
  }
  bool peekTag(uint8_t &tag) {
    uint64_t at = in.getOffset();
    if (!byte(tag, static_cast<uint8_t>(TextTag::Placed), "a text's kind"))
      return false;
    in.setOffset(at);
    return true;
  }

  bool text(IRText &ir, TextsBefore &before) {
    uint8_t tag = 0;
    if (!byte(tag, static_cast<uint8_t>(TextTag::Placed), "a text's kind"))
      return false;
    switch (static_cast<TextTag>(tag)) {
    case TextTag::None:
      ir = nullptr;
      break;
    case TextTag::SameAsBefore:
      if (!before.previousSent)
        return fail("a text shared with the one before, but there is none");
      ir = before.previous;
      break;
    case TextTag::Placed: {
      uint64_t at = 0, size = 0, lines = 0;
      if (!number(at, texts.size(), "a text's place") ||
          !number(size, UINT64_MAX, "a text's size"))
        return false;
      if (size > texts.size() - at)
        return fail("a text goes past the end of the texts");
      if (!number(lines, size, "a text's lines"))
        return false;
      ir = texts.text(at, size, lines);
      break;
    }
    }
    before.previous = ir;
    before.previousSent = static_cast<bool>(ir);
    return true;
  }

  bool diagnostics(std::vector<RecordedDiagnostic> &list, unsigned depth) {
    uint64_t count = 0;
    if (!elements(count, "diagnostics", kMinDiagnosticBytes))
      return false;
    if (count && depth >= kMaxDepth)
      return fail("notes nested too deep");
    list.reserve(count);
    for (uint64_t i = 0; i < count; ++i) {
      RecordedDiagnostic &diag = list.emplace_back();
      uint8_t severity = 0;
      uint64_t line = 0, column = 0;
      if (!byte(severity, static_cast<uint8_t>(RecordedDiagnostic::Severity::Note),
                "a severity") ||
          !string(diag.message) || !string(diag.file) ||
          !number(line, UINT32_MAX, "a line") ||
          !number(column, UINT32_MAX, "a column") || !string(diag.pass) ||
          !diagnostics(diag.notes, depth + 1))
        return false;
      diag.severity = static_cast<RecordedDiagnostic::Severity>(severity);
      diag.line = static_cast<unsigned>(line);
      diag.column = static_cast<unsigned>(column);
    }
    return true;
  }

  /// What RecordingWriter::snapshot wrote.
  bool snapshot(Snapshot &snapshot, const Snapshot *sibling,
                TextsBefore &before, unsigned depth) {
    uint64_t index = 0, count = 0;
    uint8_t flags = 0, kind = 0;
    if (!string(snapshot.target))
      return false;
    if (sibling && sibling->target != snapshot.target)
      before = TextsBefore();
    if (!number(index, uint64_t(1) << 30, "a step's index") ||
        !string(snapshot.pass) || !string(snapshot.options) ||
        !string(snapshot.anchor) || !byte(flags, 7, "a step's flags") ||
        !real(snapshot.milliseconds) ||
        !byte(kind, static_cast<uint8_t>(SnapshotKind::Assembly),
              "a step's kind") ||
        !diagnostics(snapshot.diagnostics, 0) || !text(snapshot.ir, before) ||
        !elements(count, "nested steps", kMinSnapshotBytes))
      return false;
    snapshot.index = static_cast<unsigned>(index);
    snapshot.changed = flags & 1;
    snapshot.failed = flags & 2;
    snapshot.edited = flags & 4;
    snapshot.kind = static_cast<SnapshotKind>(kind);
    if (count && depth >= kMaxDepth)
      return fail("steps nested too deep");
    snapshot.nested.reserve(count);
    TextsBefore nestedBefore;
    for (uint64_t i = 0; i < count; ++i) {
      Snapshot &step = snapshot.nested.emplace_back();
      if (!this->snapshot(step, i ? &snapshot.nested[i - 1] : nullptr,
                          nestedBefore, depth + 1))
        return false;
    }
    return true;
  }

  llvm::BinaryStreamReader in;
  TextSource texts;
  std::string error;
  uint64_t failedAt = 0;
};
} // namespace

json::Object executor_studio::snapshotToJSON(
    const Snapshot &snapshot, SnapshotField fields,
    llvm::function_ref<json::Value(const RecordedDiagnostic &)> diagnostic) {
  json::Object object{
      {"pass", snapshot.pass},
      {"anchor", snapshot.anchor},
      {"changed", snapshot.changed},
      {"failed", snapshot.failed},
      {"milliseconds", snapshot.milliseconds},
  };
  auto has = [&](SnapshotField field) {
    return (fields & field) != SnapshotField::None;
  };
  if (has(SnapshotField::Index))
    object["index"] = static_cast<int64_t>(snapshot.index);
  if (has(SnapshotField::Options))
    object["options"] = snapshot.options;
  if (has(SnapshotField::Edited))
    object["edited"] = snapshot.edited;
  if (has(SnapshotField::Kind))
    object["kind"] = snapshotKindName(snapshot.kind);
  if (has(SnapshotField::Target))
    object["target"] = snapshot.target;
  json::Array diagnostics;
  for (const RecordedDiagnostic &diag : snapshot.diagnostics)
    diagnostics.push_back(diagnostic(diag));
  object["diagnostics"] = std::move(diagnostics);
  return object;
}

json::Value executor_studio::toJSON(const RecordedDiagnostic &diag) {
  json::Object object{
      {"severity", kSeverityNames[static_cast<int>(diag.severity)]},
      {"message", diag.message},
      {"file", diag.file},
      {"line", static_cast<int64_t>(diag.line)},
      {"column", static_cast<int64_t>(diag.column)},
      {"pass", diag.pass},
  };
  if (!diag.notes.empty()) {
    json::Array notes;
    for (const RecordedDiagnostic &note : diag.notes)
      notes.push_back(toJSON(note));
    object["notes"] = std::move(notes);
  }
  return object;
}

bool executor_studio::fromJSON(const json::Value &value,
                               RecordedDiagnostic &diag, json::Path path) {
  json::ObjectMapper o(value, path);
  int64_t line = 0, column = 0;
  if (!o || !o.map("message", diag.message) || !o.map("file", diag.file) ||
      !o.map("line", line) || !o.map("column", column) ||
      !o.map("pass", diag.pass) || !o.mapOptional("notes", diag.notes))
    return false;
  if (line < 0 || column < 0 || line > UINT32_MAX || column > UINT32_MAX) {
    path.report("line or column out of range");
    return false;
  }
  diag.line = static_cast<unsigned>(line);
  diag.column = static_cast<unsigned>(column);
  const json::Value *severity = value.getAsObject()->get("severity");
  return severity && enumFromJSON(*severity, diag.severity, kSeverityNames,
                                  path.field("severity"));
}

json::Value executor_studio::toJSON(const RecordOptions &options) {
  return json::Object{
      {"pipeline", options.pipeline},
      {"recordIR", options.recordIR},
      {"deferText", options.deferText},
      {"printGenericForm", options.printGenericForm},
      {"printDebugInfo", options.printDebugInfo},
      {"allowUnregisteredDialects", options.allowUnregisteredDialects},
      {"keepArgumentNames", options.keepArgumentNames},
      {"recordNested", options.recordNested},
  };
}

bool executor_studio::fromJSON(const json::Value &value, RecordOptions &options,
                               json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("pipeline", options.pipeline) &&
         o.map("recordIR", options.recordIR) &&
         o.map("deferText", options.deferText) &&
         o.map("printGenericForm", options.printGenericForm) &&
         o.map("printDebugInfo", options.printDebugInfo) &&
         o.map("allowUnregisteredDialects", options.allowUnregisteredDialects) &&
         o.map("keepArgumentNames", options.keepArgumentNames) &&
         o.map("recordNested", options.recordNested);
}

json::Value executor_studio::toJSON(const RecordRequest &request) {
  json::Object object{{"text", request.text},
                      {"bufferName", request.bufferName},
                      {"options", toJSON(request.options)}};
  if (request.rerunAfter)
    object["rerunAfter"] = *request.rerunAfter;
  if (request.irSnapshots)
    object["irSnapshots"] = *request.irSnapshots;
  if (request.alignWith)
    object["alignWith"] = *request.alignWith;
  return object;
}

bool executor_studio::fromJSON(const json::Value &value, RecordRequest &request,
                               json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("text", request.text) &&
         o.map("bufferName", request.bufferName) &&
         o.map("options", request.options) &&
         o.mapOptional("rerunAfter", request.rerunAfter) &&
         o.mapOptional("irSnapshots", request.irSnapshots) &&
         o.mapOptional("alignWith", request.alignWith);
}

json::Value executor_studio::toJSON(const AlignedSnapshots &aligned) {
  return json::Object{{"left", aligned.left},
                      {"right", aligned.right},
                      {"leftOps", static_cast<int64_t>(aligned.leftOps)},
                      {"rightOps", static_cast<int64_t>(aligned.rightOps)},
                      {"matchedOps", static_cast<int64_t>(aligned.matchedOps)},
                      {"renamed", static_cast<int64_t>(aligned.renamed)},
                      {"moved", static_cast<int64_t>(aligned.moved)}};
}

bool executor_studio::fromJSON(const json::Value &value,
                               AlignedSnapshots &aligned, json::Path path) {
  json::ObjectMapper o(value, path);
  int64_t leftOps = 0, rightOps = 0, matchedOps = 0, renamed = 0, moved = 0;
  if (!(o && o.map("left", aligned.left) && o.map("right", aligned.right) &&
        o.map("leftOps", leftOps) && o.map("rightOps", rightOps) &&
        o.map("matchedOps", matchedOps) && o.map("renamed", renamed) &&
        o.mapOptional("moved", moved)))
    return false;
  for (int64_t count : {leftOps, rightOps, matchedOps, renamed, moved})
    if (count < 0) {
      path.report("a count is negative");
      return false;
    }
  aligned.leftOps = leftOps;
  aligned.rightOps = rightOps;
  aligned.matchedOps = matchedOps;
  aligned.renamed = renamed;
  aligned.moved = moved;
  return true;
}

void executor_studio::writeRecording(
    const Recording &recording,
    const std::optional<std::vector<int>> &irSnapshots, llvm::raw_ostream &out,
    llvm::raw_ostream &texts) {
  RecordingWriter(out, texts).write(recording, irSnapshots);
}

llvm::Expected<Recording> executor_studio::readRecording(StringRef bytes,
                                                         StringRef texts) {
  return RecordingReader(bytes, TextSource{texts, nullptr}).read();
}

std::string executor_studio::getWorkerTextsPath(StringRef resultPath) {
  return (resultPath + ".texts").str();
}

//===----------------------------------------------------------------------===//
// The worker process
//===----------------------------------------------------------------------===//

namespace {
/// The worker's files, in a temporary directory removed with it.
struct WorkerFiles {
  llvm::SmallString<128> dir;
  std::string request, result, errors;

  ~WorkerFiles() {
    if (!dir.empty())
      llvm::sys::fs::remove_directories(dir, /*IgnoreErrors=*/true);
  }

  llvm::Error create(const RecordRequest &recordRequest) {
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("executor-record", dir)) {
      dir.clear();
      return llvm::createStringError("cannot create a temporary directory: " +
                                     ec.message());
    }
    auto path = [&](StringRef name) {
      llvm::SmallString<128> result(dir);
      llvm::sys::path::append(result, name);
      return std::string(result);
    };
    request = path("request.json");
    result = path("result");
    errors = path("stderr.txt");
    std::error_code ec;
    llvm::raw_fd_ostream os(request, ec);
    if (!ec) {
      os << toJSON(recordRequest);
      os.close();
      if (os.has_error())
        ec = os.error();
    }
    if (ec)
      return llvm::createStringError("cannot write " + request + ": " +
                                     ec.message());
    return llvm::Error::success();
  }
};

/// Why the worker failed: its exit and what it said on stderr (without the
/// crash report's boilerplate; its stack trace names the pass when MLIR's
/// crash recovery does).
std::string describeFailure(const Subprocess &process, StringRef errorsPath) {
  std::string message = process.exitDescription();
  if (auto errors = llvm::MemoryBuffer::getFile(errorsPath)) {
    llvm::SmallVector<StringRef> lines;
    (*errors)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
    unsigned kept = 0;
    for (StringRef line : lines) {
      StringRef trimmed = line.trim();
      if (trimmed.starts_with("PLEASE submit") ||
          trimmed.starts_with("Stack dump") || trimmed.starts_with("#") ||
          trimmed.contains("Program arguments:"))
        continue;
      if (++kept > 8)
        break;
      message += "; " + trimmed.str();
    }
  }
  return message;
}

/// The JSON the worker wrote to `path` (its `what`); a file of more than
/// `maxBytes` is refused unread, `tooLarge` saying why.
llvm::Expected<json::Value>
readWorkerJSON(StringRef path, StringRef what, uint64_t maxBytes,
               llvm::function_ref<std::string(uint64_t)> tooLarge) {
  uint64_t size = 0;
  if (!llvm::sys::fs::file_size(path, size) && size > maxBytes)
    return llvm::createStringError(tooLarge(size));
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("the worker wrote no " + what.str());
  llvm::Expected<json::Value> parsed = json::parse((*buffer)->getBuffer());
  if (!parsed)
    return llvm::createStringError("the worker wrote invalid JSON: " +
                                   llvm::toString(parsed.takeError()));
  return parsed;
}

/// The recording the worker wrote, within what a front end should take.
llvm::Expected<Recording> readResult(StringRef path) {
  // Every pass of a huge program can be too much to hold.
  constexpr uint64_t kMaxResultBytes = uint64_t(512) << 20;
  auto tooLarge = [](StringRef what, uint64_t size) {
    return llvm::createStringError(
        llvm::formatv("the recording's {0} are {1} MB, more than a front end "
                      "should take: ask for less IR",
                      what, size >> 20)
            .str());
  };
  uint64_t size = 0;
  if (!llvm::sys::fs::file_size(path, size) && size > kMaxResultBytes)
    return tooLarge("steps", size);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError("the worker wrote no recording");
  // Its texts, kept in a file and read when a text is asked for.
  llvm::Expected<std::shared_ptr<const KeptTexts>> kept =
      KeptTexts::keep(getWorkerTextsPath(path));
  if (!kept)
    return kept.takeError();
  if ((*kept)->size() > kMaxResultBytes)
    return tooLarge("texts", (*kept)->size());
  TextSource texts;
  texts.kept = *kept;
  llvm::Expected<Recording> recording =
      RecordingReader((*buffer)->getBuffer(), std::move(texts)).read();
  if (!recording)
    return llvm::createStringError("the worker wrote an " +
                                   llvm::toString(recording.takeError()));
  recording->keptTextBytes = (*kept)->size();
  return recording;
}
} // namespace

namespace {
/// Runs `workerExecutable --record-worker` on `files` until it ends, is
/// cancelled or times out; Finished means it exited with 0 and its result
/// is in `files.result`.
WorkerRecording runWorker(const WorkerFiles &files, StringRef workerExecutable,
                          std::chrono::milliseconds timeout,
                          llvm::function_ref<bool()> cancelled) {
  WorkerRecording outcome;
  Subprocess process;
  SubprocessOptions options;
  options.out = Redirect::null();
  options.err = Redirect::file(files.errors);
  // Never outlive the front end (it kills the worker on a time-out or a
  // cancellation, but it may itself be killed).
  options.parentDeathSignal = SIGKILL;
  if (llvm::Error error = process.start({workerExecutable.str(), "--record-worker",
                                         files.request, files.result},
                                        options)) {
    outcome.error = llvm::toString(std::move(error));
    return outcome;
  }
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!process.poll()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (cancelled && cancelled()) {
      process.kill();
      outcome.status = WorkerRecording::Status::Cancelled;
      return outcome;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      process.kill();
      outcome.status = WorkerRecording::Status::TimedOut;
      outcome.error = llvm::formatv("timed out after {0} ms", timeout.count()).str();
      return outcome;
    }
  }
  if (process.exitCode() != 0) {
    outcome.error = describeFailure(process, files.errors);
    return outcome;
  }
  outcome.status = WorkerRecording::Status::Finished;
  return outcome;
}
} // namespace

namespace {
/// The recordings the workers finished, by what determines them: the
/// request as the worker reads it (program, buffer name, pipeline and its
/// options, rerun step, texts asked for) and the worker executable (its
/// path, size and modification time: another build records anew). Least
/// recently used out; bounded by the bytes of its texts.
class RecordingCache {
public:
  static RecordingCache &get() {
    static RecordingCache cache;
    return cache;
  }

  static std::string key(const RecordRequest &request,
                         StringRef workerExecutable) {
    std::string key;
    llvm::raw_string_ostream os(key);
    llvm::sys::fs::file_status status;
    os << workerExecutable;
    if (!llvm::sys::fs::status(workerExecutable, status))
      os << " " << status.getSize() << " "
         << status.getLastModificationTime().time_since_epoch().count();
    os << "\n" << toJSON(request);
    return key;
  }

  /// The recording of `key` and its id (idOf).
  std::optional<std::pair<std::shared_ptr<const Recording>, std::string>>
  lookup(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = index.find(key);
    if (it == index.end()) {
      ++stats.misses;
      return std::nullopt;
    }
    ++stats.hits;
    entries.splice(entries.begin(), entries, it->second);
    return std::make_pair(it->second->recording, it->second->id);
  }

  /// The recording whose id is `id`, if it is still kept.
  std::shared_ptr<const Recording> lookupId(StringRef id) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = ids.find(id.str());
    if (it == ids.end())
      return nullptr;
    entries.splice(entries.begin(), entries, it->second);
    return it->second->recording;
  }

  /// The id of the recording of `key`: a hash of it, 16 hex digits.
  static std::string idOf(const std::string &key) {
    return llvm::utohexstr(llvm::xxh3_64bits(key), /*LowerCase=*/true,
                           /*Width=*/16);
  }

  /// Keeps `recording` under `key`; false when it is larger than the limit.
  bool insert(const std::string &key,
              const std::shared_ptr<const Recording> &recording) {
    // Texts read when asked for count as what they can become.
    size_t bytes = key.size() + size(recording->inputIR) +
                   recording->keptTextBytes;
    for (const Snapshot &snapshot : recording->snapshots) {
      bytes += size(snapshot.ir) + snapshot.pass.size() + 256;
      for (const Snapshot &nested : snapshot.nested)
        bytes += size(nested.ir) + nested.pass.size() + 256;
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (bytes > stats.limit)
      return false;
    if (index.count(key))
      return true;
    std::string id = idOf(key);
    if (ids.count(id))
      return false; // (another key with the same hash: not addressable)
    entries.push_front(
        {key, id, recording, bytes});
    index[key] = entries.begin();
    ids[id] = entries.begin();
    stats.bytes += bytes;
    shrink();
    return true;
  }

  void setLimit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    stats.limit = bytes;
    shrink();
  }

  RecordingCacheStatistics statistics() {
    std::lock_guard<std::mutex> lock(mutex);
    RecordingCacheStatistics result = stats;
    result.entries = entries.size();
    return result;
  }

private:
  RecordingCache() {
    stats.limit = size_t(256) << 20;
    if (const char *mb = std::getenv("EXECUTOR_STUDIO_RECORDING_CACHE_MB"))
      stats.limit = size_t(std::strtoull(mb, nullptr, 10)) << 20;
  }
  static size_t size(const IRText &text) {
    // A deferred text is not printed for this: it counts as its copy would.
    return text && text.isMade() ? text->size() : 0;
  }
  void shrink() {
    while (stats.bytes > stats.limit && !entries.empty()) {
      stats.bytes -= entries.back().bytes;
      index.erase(entries.back().key);
      ids.erase(entries.back().id);
      entries.pop_back();
    }
  }
  struct Entry {
    std::string key, id;
    std::shared_ptr<const Recording> recording;
    size_t bytes;
  };
  std::mutex mutex;
  std::list<Entry> entries;
  std::unordered_map<std::string, std::list<Entry>::iterator> index, ids;
  RecordingCacheStatistics stats;
};
} // namespace

RecordingCacheStatistics executor_studio::getRecordingCacheStatistics() {
  return RecordingCache::get().statistics();
}

void executor_studio::setRecordingCacheLimit(size_t bytes) {
  RecordingCache::get().setLimit(bytes);
}

WorkerRecording executor_studio::recordInWorker(
    const RecordRequest &request, StringRef workerExecutable,
    std::chrono::milliseconds timeout, llvm::function_ref<bool()> cancelled) {
  // An unchanged request answers from the cache: the recording the worker
  // sent for it, byte for byte.
  std::string cacheKey = RecordingCache::key(request, workerExecutable);
  if (auto cached = RecordingCache::get().lookup(cacheKey)) {
    WorkerRecording outcome;
    outcome.status = WorkerRecording::Status::Finished;
    outcome.recording = std::move(cached->first);
    outcome.cacheId = std::move(cached->second);
    return outcome;
  }
  WorkerRecording outcome = recordInWorkerUncached(request, workerExecutable,
                                                   timeout, cancelled);
  if (outcome.status == WorkerRecording::Status::Finished &&
      RecordingCache::get().insert(cacheKey, outcome.recording))
    outcome.cacheId = RecordingCache::idOf(cacheKey);
  return outcome;
}

std::shared_ptr<const Recording>
executor_studio::lookupCachedRecording(StringRef id) {
  return RecordingCache::get().lookupId(id);
}

WorkerRecording executor_studio::recordInWorkerUncached(
    const RecordRequest &request, StringRef workerExecutable,
    std::chrono::milliseconds timeout, llvm::function_ref<bool()> cancelled) {
  WorkerRecording outcome;
  WorkerFiles files;
  if (llvm::Error error = files.create(request)) {
    outcome.error = llvm::toString(std::move(error));
    return outcome;
  }
  outcome = runWorker(files, workerExecutable, timeout, cancelled);
  if (outcome.status != WorkerRecording::Status::Finished)
    return outcome;
  llvm::Expected<Recording> recording = readResult(files.result);
  if (!recording) {
    outcome.status = WorkerRecording::Status::Failed;
    outcome.error = llvm::toString(recording.takeError());
    return outcome;
  }
  outcome.recording = std::make_shared<const Recording>(std::move(*recording));
  return outcome;
}

llvm::Expected<AlignedSnapshots>
executor_studio::alignInWorker(StringRef left, StringRef right,
                               StringRef workerExecutable,
                               std::chrono::milliseconds timeout,
                               llvm::function_ref<bool()> cancelled) {
  RecordRequest request;
  request.text = left.str();
  request.bufferName = "left";
  request.alignWith = right.str();
  WorkerFiles files;
  if (llvm::Error error = files.create(request))
    return error;
  WorkerRecording run = runWorker(files, workerExecutable, timeout, cancelled);
  switch (run.status) {
  case WorkerRecording::Status::Cancelled:
    return llvm::createStringError("the alignment was cancelled");
  case WorkerRecording::Status::TimedOut:
  case WorkerRecording::Status::Failed:
    return llvm::createStringError("the worker that aligns the texts failed (" +
                                   run.error + ")");
  case WorkerRecording::Status::Finished:
    break;
  }
  // Both texts, renamed: at most a little more than what was sent.
  uint64_t limit = 2 * (left.size() + right.size()) + (1u << 20);
  llvm::Expected<json::Value> parsed =
      readWorkerJSON(files.result, "alignment", limit, [&](uint64_t size) {
        return llvm::formatv("the worker's alignment is {0} bytes, more than "
                             "the {1} bytes its texts can take",
                             size, limit)
            .str();
      });
  if (!parsed)
    return parsed.takeError();
  const json::Object *object = parsed->getAsObject();
  if (object)
    if (std::optional<StringRef> error = object->getString("error"))
      return llvm::createStringError(*error);
  AlignedSnapshots aligned;
  json::Path::Root root("alignment");
  json::Path path(root);
  if (!object || !object->get("aligned") ||
      !fromJSON(*object->get("aligned"), aligned, path.field("aligned")))
    return llvm::createStringError(
        "the worker wrote an invalid alignment: " +
        (object && object->get("aligned") ? llvm::toString(root.getError())
                                          : std::string("no \"aligned\"")));
  return aligned;
}
