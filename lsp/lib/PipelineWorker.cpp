//===- PipelineWorker.cpp - the pipeline, run in a child process ----------===//
#include "ExecutorLsp/PipelineWorker.h"
#include "ExecutorLsp/DocumentLimits.h"

#include "ExecutorLsp/SourceRanges.h"
#include "ExecutorLsp/SplitFile.h"

#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
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
    pipeline = catalyst::getDefaultPipelineText(
        {request.workspace, "", request.debug});

  std::error_code ec;
  llvm::raw_fd_ostream os(request.outputPath, ec);
  if (ec) {
    llvm::errs() << "cannot write " << request.outputPath << ": "
                 << ec.message() << "\n";
    return 1;
  }
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
