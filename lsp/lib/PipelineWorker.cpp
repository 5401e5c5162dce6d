//===- PipelineWorker.cpp - the pipeline, run in a child process ----------===//
#include "ExecutorLsp/PipelineWorker.h"
#include "ExecutorLsp/DocumentLimits.h"

#include "ExecutorLsp/SourceRanges.h"
#include "ExecutorLsp/SplitFile.h"

#include "Pipeline/OpHistory.h"
#include "Pipeline/PipelineRecorder.h"
#include "Pipeline/StructuralDiff.h"
#include "Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#ifdef __linux__
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

using namespace executor_studio;
using namespace executor_studio::lsp;
namespace proto = llvm::lsp;

namespace {
/// Converts the recorder's diagnostics to LSP diagnostics of one chunk.
class DiagnosticConverter {
public:
  /// `file` is the buffer name the recorder parsed `text` under.
  DiagnosticConverter(llvm::StringRef text, unsigned lineOffset,
                      const std::string &uri, const std::string &file)
      : lineOffset(lineOffset), uri(uri), file(file) {
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, file),
                                 llvm::SMLoc());
    buffer = text;
  }

  llvm::json::Object convert(const RecordedDiagnostic &diag) {
    llvm::json::Object result{
        {"range", getRange(diag)},
        {"severity", static_cast<int64_t>(getSeverity(diag.severity))},
        {"message", diag.message},
        {"source", diag.pass.empty() ? "mlir" : "executor-pipeline"},
    };
    if (!diag.pass.empty())
      result["pass"] = diag.pass;
    llvm::json::Array related;
    for (const RecordedDiagnostic &note : diag.notes) {
      // The op dump MLIR attaches to pass errors says nothing the range
      // does not.
      if (llvm::StringRef(note.message).starts_with("see current operation"))
        continue;
      related.push_back(llvm::json::Object{
          {"location",
           llvm::json::Object{{"uri", uri}, {"range", getRange(note)}}},
          {"message", note.message}});
    }
    if (!related.empty())
      result["relatedInformation"] = std::move(related);
    return result;
  }

private:
  static proto::DiagnosticSeverity
  getSeverity(RecordedDiagnostic::Severity severity) {
    switch (severity) {
    case RecordedDiagnostic::Severity::Error:
      return proto::DiagnosticSeverity::Error;
    case RecordedDiagnostic::Severity::Warning:
      return proto::DiagnosticSeverity::Warning;
    case RecordedDiagnostic::Severity::Remark:
    case RecordedDiagnostic::Severity::Note:
      return proto::DiagnosticSeverity::Information;
    }
    return proto::DiagnosticSeverity::Error;
  }

  llvm::json::Value getRange(const RecordedDiagnostic &diag) {
    proto::Range range{proto::Position(lineOffset)};
    if (diag.file == file && diag.line > 0) {
      llvm::SMLoc loc = findLocForLineAndColumn(
          sourceMgr, diag.line - 1, diag.column > 0 ? diag.column - 1 : 0);
      if (loc.isValid()) {
        llvm::SMRange token = getTokenRange(buffer, loc);
        range = proto::Range(sourceMgr, token);
        range.start.line += lineOffset;
        range.end.line += lineOffset;
      }
    }
    return llvm::json::Value(range);
  }

  llvm::SourceMgr sourceMgr;
  llvm::StringRef buffer;
  unsigned lineOffset;
  std::string uri;
  std::string file;
};

/// The steps recorded inside `parent` (each target's own pipeline inside
/// cross-compile-targets): `name` is the parent's pass and the step's
/// (`cross-compile-targets/compute/convert-func-to-llvm`), `number` counts
/// within the target from its extracted module (0), as executor-compile
/// names the files in ir/TARGET/. With `withIR`, the text of each step that
/// differs from the one before it in its target.
void writeNested(llvm::json::OStream &out, const Snapshot &parent,
                 DiagnosticConverter &converter, bool withIR) {
  out.attributeArray("nested", [&] {
    const Snapshot *before = nullptr;
    for (const Snapshot &step : parent.nested) {
      out.object([&] {
        out.attribute("number", static_cast<int64_t>(step.index));
        out.attribute("name", parent.pass + "/" + step.pass);
        out.attribute("pass", step.pass);
        out.attribute("target", step.target);
        out.attribute("anchor", step.anchor);
        out.attribute("kind", snapshotKindName(step.kind));
        out.attribute("changed", step.changed);
        out.attribute("failed", step.failed);
        out.attribute("milliseconds", step.milliseconds);
        bool sameAsBefore = before && before->target == step.target &&
                            step.ir.sameAs(before->ir);
        if (withIR && step.ir && !sameAsBefore)
          out.attribute("ir", *step.ir);
        out.attributeArray("diagnostics", [&] {
          for (const RecordedDiagnostic &diag : step.diagnostics)
            out.value(converter.convert(diag));
        });
      });
      before = &step;
    }
  });
}

void writeRecording(llvm::json::OStream &out, const Recording &recording,
                    const FileChunk &chunk, unsigned index,
                    const std::string &pipeline,
                    const PipelineWorkerRequest &request,
                    const std::string &bufferName) {
  const std::string &uri = request.uri;
  using IRMode = PipelineWorkerRequest::IRMode;
  auto selected = [&](int snapshot) {
    return request.irMode == IRMode::Selected &&
           llvm::is_contained(request.irSnapshots, snapshot);
  };
  DiagnosticConverter converter(chunk.text, chunk.lineOffset, uri, bufferName);
  out.object([&] {
    out.attribute("chunk", static_cast<int64_t>(index));
    out.attribute("lineOffset", static_cast<int64_t>(chunk.lineOffset));
    out.attribute("pipeline", pipeline);
    if (request.rerunAfter) {
      out.attribute("editedSnapshot",
                    static_cast<int64_t>(*request.rerunAfter));
      out.attribute("firstStep", static_cast<int64_t>(*request.rerunAfter + 1));
      if (auto rest = remainingPipeline(pipeline, *request.rerunAfter))
        out.attribute("remainingPipeline", *rest);
      else
        llvm::consumeError(rest.takeError());
    }
    out.attribute("succeeded", recording.succeeded);
    out.attribute("totalMilliseconds", recording.totalMilliseconds);
    if (recording.inputIR &&
        (request.irMode == IRMode::Changes || selected(-1)))
      out.attribute("input", *recording.inputIR);
    out.attributeArray("diagnostics", [&] {
      for (const RecordedDiagnostic &diag : recording.diagnostics)
        out.value(converter.convert(diag));
    });
    out.attributeArray("snapshots", [&] {
      // Compared without printing: in Selected mode only the snapshots
      // asked for are printed.
      IRText previous = recording.inputIR;
      for (const Snapshot &snapshot : recording.snapshots) {
        out.object([&] {
          out.attribute("index", static_cast<int64_t>(snapshot.index));
          // As the studio shows it and executor-compile names its file.
          out.attribute("number", static_cast<int64_t>(snapshot.index + 1));
          out.attribute("pass", snapshot.pass);
          out.attribute("options", snapshot.options);
          out.attribute("anchor", snapshot.anchor);
          out.attribute("changed", snapshot.changed);
          out.attribute("failed", snapshot.failed);
          out.attribute("milliseconds", snapshot.milliseconds);
          if (snapshot.ir && ((request.irMode == IRMode::Changes &&
                               !snapshot.ir.sameAs(previous)) ||
                              selected(snapshot.index)))
            out.attribute("ir", *snapshot.ir);
          out.attributeArray("diagnostics", [&] {
            for (const RecordedDiagnostic &diag : snapshot.diagnostics)
              out.value(converter.convert(diag));
          });
          if (!snapshot.nested.empty())
            writeNested(out, snapshot, converter,
                        request.irMode == IRMode::Changes ||
                            selected(snapshot.index));
        });
        if (snapshot.ir)
          previous = snapshot.ir;
      }
    });
  });
}
/// A snapshot of `recording` by reference: `-1` the input, a number the
/// snapshot with that index, else a name (findSnapshot).
struct SnapshotRef {
  IRText ir;
  SnapshotKind kind = SnapshotKind::MLIR;
  std::string name;
};
std::optional<SnapshotRef> resolveSnapshot(const Recording &recording,
                                           llvm::StringRef ref) {
  int index;
  if (!ref.getAsInteger(10, index)) {
    if (index == -1)
      return SnapshotRef{recording.inputIR, SnapshotKind::MLIR, "input"};
    for (const Snapshot &snapshot : recording.snapshots)
      if (static_cast<int>(snapshot.index) == index)
        return SnapshotRef{snapshot.ir, snapshot.kind, snapshot.pass};
    return std::nullopt;
  }
  const Snapshot *found = findSnapshot(recording, ref);
  if (!found)
    return std::nullopt;
  std::string name = found->pass;
  for (const Snapshot &parent : recording.snapshots)
    for (const Snapshot &nested : parent.nested)
      if (&nested == found)
        name = parent.pass + "/" + nested.pass;
  return SnapshotRef{found->ir, found->kind, name};
}

/// The snapshots a recording has, for an error that names a wrong one.
std::string describeSnapshots(const Recording &recording) {
  return llvm::formatv("the pipeline has {0} steps, numbered from 0 (-1 is "
                       "the input; a target's own steps by name, as "
                       "`cross-compile-targets/TARGET/STEP`)",
                       recording.snapshots.size())
      .str();
}

/// `executor/opHistory`: the recording's steps where the op is.
void writeHistory(llvm::json::OStream &out, const Recording &recording,
                  const llvm::json::Object &query, const FileChunk &chunk,
                  unsigned index, const std::string &pipeline,
                  const PipelineWorkerRequest &request,
                  const std::string &bufferName) {
  DiagnosticConverter converter(chunk.text, chunk.lineOffset, request.uri,
                                bufferName);
  std::vector<SourcePlace> places;
  std::string error;
  if (const llvm::json::Array *list = query.getArray("places")) {
    for (const llvm::json::Value &value : *list) {
      const llvm::json::Object *place = value.getAsObject();
      if (!place)
        continue;
      SourcePlace p;
      p.file = place->getString("file").value_or("").str();
      p.line = static_cast<unsigned>(place->getInteger("line").value_or(0));
      p.column = static_cast<unsigned>(place->getInteger("column").value_or(0));
      places.push_back(std::move(p));
    }
  } else {
    std::string ref = query.getString("snapshot").value_or("").str();
    int64_t line = query.getInteger("line").value_or(-1);
    const int64_t asked = line;
    std::optional<SnapshotRef> snapshot = resolveSnapshot(recording, ref);
    if (!recording.inputIR) {
      error = "the document did not parse: no snapshot to follow an op in";
    } else if (!snapshot || !snapshot->ir) {
      error = "there is no snapshot " + ref + ": " + describeSnapshots(recording);
    } else {
      SnapshotPlaces text(*snapshot->ir, snapshot->kind);
      // A line of the snapshot as the preview prints it: the same lines
      // but for the location aliases (`#loc3 = loc(...)`) this one has.
      if (query.getBoolean("previewLine").value_or(false) &&
          snapshot->kind == SnapshotKind::MLIR && line >= 0) {
        int64_t shown = -1;
        size_t at = 0;
        for (; at < text.size(); ++at) {
          llvm::StringRef t = text.line(at);
          if (t.starts_with("#") && t.contains(" = loc("))
            continue;
          if (++shown == line)
            break;
        }
        line = static_cast<int64_t>(at);
      }
      if (line < 0 || static_cast<size_t>(line) >= text.size())
        error = llvm::formatv("line {0} is past the end of {1} ({2} lines)",
                              asked, snapshot->name, text.size())
                    .str();
      else if ((places = text.placesOfLine(static_cast<size_t>(line))).empty())
        error = llvm::formatv("line {0} of {1} names no location: `{2}`", asked,
                              snapshot->name,
                              text.line(static_cast<size_t>(line)).trim())
                    .str();
    }
  }
  bool withIR = query.getBoolean("withIR").value_or(false);
  out.object([&] {
    out.attribute("chunk", static_cast<int64_t>(index));
    out.attribute("lineOffset", static_cast<int64_t>(chunk.lineOffset));
    out.attribute("pipeline", pipeline);
    out.attribute("succeeded", recording.succeeded);
    if (!error.empty()) {
      out.attribute("error", error);
      out.attribute("invalidParams", recording.inputIR ? true : false);
      return;
    }
    out.attributeArray("diagnostics", [&] {
      for (const RecordedDiagnostic &diag : recording.diagnostics)
        out.value(converter.convert(diag));
    });
    out.attributeArray("places", [&] {
      for (const SourcePlace &place : places)
        out.object([&] {
          out.attribute("file", place.file);
          out.attribute("line", static_cast<int64_t>(place.line));
          out.attribute("column", static_cast<int64_t>(place.column));
        });
    });
    out.attributeArray("steps", [&] {
      for (const OpHistoryStep &step : opHistory(recording, places)) {
        const Snapshot *snapshot = step.snapshot;
        const IRText &ir = snapshot ? snapshot->ir : recording.inputIR;
        SnapshotKind kind = snapshot ? snapshot->kind : SnapshotKind::MLIR;
        out.object([&] {
          if (!snapshot) {
            out.attribute("name", "input");
            out.attribute("index", -1);
            out.attribute("number", 0);
          } else if (step.parent) {
            out.attribute("name", step.parent->pass + "/" + snapshot->pass);
            out.attribute("pass", snapshot->pass);
            out.attribute("target", snapshot->target);
            out.attribute("parent", static_cast<int64_t>(step.parent->index));
            out.attribute("number", static_cast<int64_t>(snapshot->index));
          } else {
            out.attribute("name", snapshot->pass);
            out.attribute("pass", snapshot->pass);
            out.attribute("index", static_cast<int64_t>(snapshot->index));
            out.attribute("number", static_cast<int64_t>(snapshot->index + 1));
          }
          out.attribute("kind", snapshotKindName(kind));
          if (snapshot)
            out.attribute("changed", snapshot->changed);
          SnapshotPlaces text(*ir, kind);
          out.attributeArray("lines", [&] {
            for (unsigned line : step.lines)
              out.value(static_cast<int64_t>(line));
          });
          // LSP ranges of the lines, from their first non-blank character.
          out.attributeArray("ranges", [&] {
            for (unsigned line : step.lines) {
              llvm::StringRef t = text.line(line);
              size_t start = t.size() - t.ltrim().size();
              out.value(llvm::json::Value(proto::Range(
                  proto::Position(line, static_cast<int>(start)),
                  proto::Position(line, static_cast<int>(t.rtrim().size())))));
            }
          });
          out.attributeArray("texts", [&] {
            for (unsigned line : step.lines)
              out.value(text.line(line).trim());
          });
          if (withIR && !step.lines.empty())
            out.attribute("ir", *ir);
        });
      }
    });
  });
}

/// `executor/alignedSnapshots`: two snapshots' texts, aligned by the
/// structural diff when both are MLIR (and a line diff was not asked for).
void writeAligned(llvm::json::OStream &out, const Recording &recording,
                  const llvm::json::Object &query, const FileChunk &chunk,
                  unsigned index, const std::string &pipeline,
                  const PipelineWorkerRequest &request,
                  const std::string &bufferName) {
  DiagnosticConverter converter(chunk.text, chunk.lineOffset, request.uri,
                                bufferName);
  std::string leftRef = query.getString("left").value_or("").str();
  std::string rightRef = query.getString("right").value_or("").str();
  bool lineDiff = query.getBoolean("lineDiff").value_or(false);
  std::optional<SnapshotRef> left = resolveSnapshot(recording, leftRef);
  std::optional<SnapshotRef> right = resolveSnapshot(recording, rightRef);
  out.object([&] {
    out.attribute("chunk", static_cast<int64_t>(index));
    out.attribute("lineOffset", static_cast<int64_t>(chunk.lineOffset));
    out.attribute("pipeline", pipeline);
    out.attribute("succeeded", recording.succeeded);
    if (!recording.inputIR) {
      out.attribute("error", "the document did not parse: no snapshots to compare");
      return;
    }
    for (auto [ref, found] : {std::make_pair(&leftRef, &left),
                              std::make_pair(&rightRef, &right)})
      if (!*found || !(*found)->ir) {
        out.attribute("error", "there is no snapshot " + *ref + ": " +
                                   describeSnapshots(recording));
        out.attribute("invalidParams", true);
        return;
      }
    std::string leftText = *left->ir, rightText = *right->ir;
    std::string mode = "line";
    std::string why;
    std::optional<AlignedSnapshots> aligned;
    if (lineDiff) {
      why = "a line diff was asked for";
    } else if (left->kind != SnapshotKind::MLIR ||
               right->kind != SnapshotKind::MLIR) {
      why = "LLVM IR and assembly are compared line by line";
    } else if (llvm::Expected<AlignedSnapshots> result =
                   alignSnapshots(leftText, rightText)) {
      aligned = std::move(*result);
      mode = "structural";
    } else {
      why = llvm::toString(result.takeError());
    }
    out.attribute("mode", mode);
    if (!why.empty())
      out.attribute("why", why);
    auto side = [&](const char *key, const SnapshotRef &ref,
                    const std::string &text) {
      out.attributeObject(key, [&] {
        out.attribute("name", ref.name);
        out.attribute("kind", snapshotKindName(ref.kind));
        out.attribute("text", text);
      });
    };
    side("left", *left, aligned ? aligned->left : leftText);
    side("right", *right, aligned ? aligned->right : rightText);
    if (aligned) {
      out.attribute("leftOps", static_cast<int64_t>(aligned->leftOps));
      out.attribute("rightOps", static_cast<int64_t>(aligned->rightOps));
      out.attribute("matchedOps", static_cast<int64_t>(aligned->matchedOps));
      out.attribute("renamed", static_cast<int64_t>(aligned->renamed));
    }
    out.attributeArray("diagnostics", [&] {
      for (const RecordedDiagnostic &diag : recording.diagnostics)
        out.value(converter.convert(diag));
    });
  });
}

/// Runs a query (PipelineWorkerRequest::query) on one chunk.
int runQuery(const PipelineWorkerRequest &request, llvm::StringRef input,
             const std::string &bufferName, const std::string &pipeline,
             llvm::raw_fd_ostream &os) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(*request.query);
  const llvm::json::Object *query = parsed ? parsed->getAsObject() : nullptr;
  if (!query) {
    if (!parsed)
      llvm::errs() << "invalid query: " << llvm::toString(parsed.takeError()) << "\n";
    else
      llvm::errs() << "invalid query: not an object\n";
    return 1;
  }
  bool history = query->getString("kind") == "history";
  RecordOptions options;
  options.pipeline = pipeline;
  options.allowUnregisteredDialects = request.allowUnregisteredDialects;
  options.recordNested = true;
  if (history) {
    // Ops are followed by their locations, into each target's line table;
    // every text is searched.
    options.printDebugInfo = true;
    options.deferText = false;
  }
  llvm::SmallVector<FileChunk, 1> chunks = splitFileChunks(input);
  unsigned index = static_cast<unsigned>(std::max(request.chunk, 0));
  if (index >= chunks.size() || index >= kMaxAnalysedChunks) {
    llvm::errs() << "no chunk " << index << "\n";
    return 1;
  }
  // The parser needs a NUL-terminated buffer.
  std::string text = chunks[index].text.str();
  Recording recording = recordPipeline(text, bufferName, options);
  llvm::json::OStream out(os);
  out.object([&] {
    out.attributeArray("chunks", [&] {
      FileChunk chunk{text, chunks[index].lineOffset};
      if (history)
        writeHistory(out, recording, *query, chunk, index, pipeline, request,
                     bufferName);
      else
        writeAligned(out, recording, *query, chunk, index, pipeline, request,
                     bufferName);
    });
  });
  os.flush();
  return os.has_error() ? 1 : 0;
}
} // namespace

int executor_studio::lsp::runPipelineWorker(
    const PipelineWorkerRequest &request) {
  using IRMode = PipelineWorkerRequest::IRMode;
#ifdef __linux__
  // Never outlive the server (it kills us on a time-out, an edit or exit,
  // but it may itself be killed).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1)
    return 1;
#endif
  auto input = llvm::MemoryBuffer::getFile(request.inputPath);
  if (!input) {
    llvm::errs() << "cannot read " << request.inputPath << ": "
                 << input.getError().message() << "\n";
    return 1;
  }
  std::string bufferName = request.uri;
  if (auto parsed = proto::URIForFile::fromURI(request.uri))
    bufferName = parsed->file().str();
  else
    llvm::consumeError(parsed.takeError());

  std::string pipeline = request.pipeline;
  if (pipeline.empty())
    pipeline = catalyst::getDefaultPipelineText({request.workspace, ""});

  std::error_code ec;
  llvm::raw_fd_ostream os(request.outputPath, ec);
  if (ec) {
    llvm::errs() << "cannot write " << request.outputPath << ": "
                 << ec.message() << "\n";
    return 1;
  }
  if (request.query)
    return runQuery(request, (*input)->getBuffer(), bufferName, pipeline, os);
  llvm::json::OStream out(os);
  RecordOptions options;
  options.pipeline = pipeline;
  options.recordIR = request.irMode != IRMode::None;
  // Every changed snapshot is written in Changes mode: print each at once
  // rather than keep a copy of the module per step until then.
  options.deferText = request.irMode == IRMode::Selected;
  options.allowUnregisteredDialects = request.allowUnregisteredDialects;
  // Each target's own lowering, down to its assembly, inside
  // cross-compile-targets.
  options.recordNested = options.recordIR;
  if (request.rerunAfter) {
    // The edited IR after one snapshot: one program, whose lines the
    // diagnostics refer to.
    out.object([&] {
      out.attributeArray("chunks", [&] {
        std::string text = (*input)->getBuffer().str();
        Recording recording =
            recordPipelineFrom(text, bufferName, options, *request.rerunAfter);
        writeRecording(out, recording, {text, 0}, std::max(request.chunk, 0),
                       pipeline, request, bufferName);
      });
    });
    os.flush();
    return os.has_error() ? 1 : 0;
  }
  llvm::SmallVector<FileChunk, 1> chunks =
      splitFileChunks((*input)->getBuffer());
  out.object([&] {
    out.attributeArray("chunks", [&] {
      for (auto [index, chunk] : llvm::enumerate(chunks)) {
        if (index >= kMaxAnalysedChunks) // as the server checks them
          break;
        if (request.chunk >= 0 && index != static_cast<size_t>(request.chunk))
          continue;
        if (request.chunk < 0 && !mentionsExecutorDialects(chunk.text))
          continue;
        // The parser needs a NUL-terminated buffer.
        std::string text = chunk.text.str();
        Recording recording = recordPipeline(text, bufferName, options);
        writeRecording(out, recording, {text, chunk.lineOffset}, index,
                       pipeline, request, bufferName);
      }
    });
  });
  os.flush();
  return os.has_error() ? 1 : 0;
}
