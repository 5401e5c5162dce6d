//===- PipelineRecorderText.cpp - record a pipeline on text -----*- C++ -*-===//
//
// The text entry point of the recorder: it parses with every dialect and
// pass that executor-opt registers, so it lives with the registration; so
// does the recording worker's side (RecordingWorker.h), which records text.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/InputLimits.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Registration/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <csignal>
#include <cstdlib>

using namespace mlir;
using namespace executor_studio;

namespace {
void registerPassesOnce() {
  static bool registered = [] {
    registerAllPasses();
    return true;
  }();
  (void)registered;
}
} // namespace

namespace {
Recording recordText(StringRef source, StringRef bufferName,
                     const RecordOptions &options);
} // namespace

Recording executor_studio::recordPipeline(StringRef source, StringRef bufferName,
                                          const RecordOptions &options) {
  // The parser, the passes and the printer recurse per nesting level: refuse
  // input nested too deep, and run on a thread with a large stack.
  if (std::optional<size_t> deep = findExcessiveNesting(source)) {
    StringRef before = source.take_front(*deep);
    RecordedDiagnostic diag;
    diag.file = bufferName.str();
    diag.line = before.count('\n') + 1;
    diag.column = *deep - (before.rfind('\n') + 1) + 1;
    diag.message = nestingRefusal("the input", "it is not parsed");
    Recording refused;
    refused.diagnostics.push_back(std::move(diag));
    return refused;
  }
  Recording recording;
  runOnParserStack([&] { recording = recordText(source, bufferName, options); });
  return recording;
}

namespace {
Recording recordText(StringRef source, StringRef bufferName,
                     const RecordOptions &options) {
  registerPassesOnce();
  DialectRegistry registry;
  registerAllDialects(registry);
  // Deferred snapshot texts keep the context alive until they are printed.
  // The context and the module: deferred texts print the module after the
  // last step as it is, and keep both alive until they are printed.
  struct Owner {
    std::shared_ptr<MLIRContext> context;
    OwningOpRef<ModuleOp> module; // destroyed before the context
  };
  auto owner = std::make_shared<Owner>();
  // Multithreaded: the recording runs the passes on one thread, but a pass
  // may use threads of its own (cross-compile-targets compiles its targets
  // in parallel: executor_studio::recordingAllowsThreads()).
  owner->context = std::make_shared<MLIRContext>(registry, MLIRContext::Threading::ENABLED);
  MLIRContext &ctx = *owner->context;
  ctx.allowUnregisteredDialects(options.allowUnregisteredDialects);
  ctx.printOpOnDiagnostic(false);

  Recording failedParse;
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
      failedParse.diagnostics.push_back(convertDiagnostic(diag));
      return success();
    });
    // MLIR's lexer ends at the NUL after a MemoryBuffer's text: a slice of
    // a larger buffer is copied, or it would read on past its end.
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
    module = parseModule(sourceMgr, ParserConfig(&ctx),
                         options.keepArgumentNames);
  }
  if (!module)
    return failedParse;
  owner->module = std::move(module);
  // The input is printed by parsing the source again when it is asked for,
  // in a context of its own (texts may be asked for on any thread, and the
  // recording's context takes no locks).
  ParsedInput parsed;
  parsed.opIsKept = true;
  parsed.printReparsed = [source = source.str(), name = bufferName.str(),
                          unregistered = options.allowUnregisteredDialects,
                          keepNames = options.keepArgumentNames](
                             const std::function<std::string(Operation *)> &print) {
    DialectRegistry registry;
    registerAllDialects(registry);
    MLIRContext context(registry, MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(unregistered);
    std::string text;
    // The parser and the printer recurse per nesting level.
    runOnParserStack([&] {
      llvm::SourceMgr sourceMgr;
      sourceMgr.AddNewSourceBuffer(
          llvm::MemoryBuffer::getMemBuffer(source, name), llvm::SMLoc());
      OwningOpRef<ModuleOp> again =
          parseModule(sourceMgr, ParserConfig(&context), keepNames);
      if (again)
        text = print(again->getOperation());
    });
    return text;
  };
  return recordPipeline(owner->module->getOperation(), options, owner, parsed);
}
} // namespace

Recording executor_studio::recordPipelineFrom(StringRef text,
                                              StringRef bufferName,
                                              const RecordOptions &options,
                                              int afterStep) {
  registerPassesOnce();
  auto rest = remainingPipeline(options.pipeline, afterStep);
  if (!rest) {
    Recording failed;
    RecordedDiagnostic diag;
    diag.message = llvm::toString(rest.takeError());
    failed.diagnostics.push_back(std::move(diag));
    return failed;
  }
  RecordOptions restOptions = options;
  restOptions.pipeline = *rest;
  Recording recording = recordPipeline(text, bufferName, restOptions);
  recording.firstStep = static_cast<unsigned>(afterStep + 1);
  for (Snapshot &snapshot : recording.snapshots)
    snapshot.index += recording.firstStep;
  return recording;
}

//===----------------------------------------------------------------------===//
// The recording worker's side (RecordingWorker.h)
//===----------------------------------------------------------------------===//

/// Writes `path` with `write`: 0, or 1 with why on stderr.
static int writeWorkerFile(StringRef path,
                           llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    write(os);
    os.close();
    if (os.has_error()) {
      ec = os.error();
      os.clear_error();
    }
  }
  if (ec)
    llvm::errs() << "cannot write " << path << ": " << ec.message() << "\n";
  return ec ? 1 : 0;
}

int executor_studio::runRecordWorker(StringRef requestPath,
                                     StringRef resultPath) {
  auto input = llvm::MemoryBuffer::getFile(requestPath);
  if (!input) {
    llvm::errs() << "cannot read " << requestPath << ": "
                 << input.getError().message() << "\n";
    return 1;
  }
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*input)->getBuffer());
  RecordRequest request;
  llvm::json::Path::Root root("request");
  if (!parsed || !fromJSON(*parsed, request, root)) {
    llvm::errs() << "invalid request " << requestPath << ": "
                 << (parsed ? llvm::toString(root.getError())
                            : llvm::toString(parsed.takeError()))
                 << "\n";
    return 1;
  }
  if (request.alignWith) {
    llvm::Expected<AlignedSnapshots> aligned =
        alignSnapshots(request.text, *request.alignWith);
    llvm::json::Value result =
        aligned ? llvm::json::Object{{"aligned", toJSON(*aligned)}}
                : llvm::json::Object{{"error", llvm::toString(aligned.takeError())}};
    return writeWorkerFile(resultPath,
                           [&](llvm::raw_ostream &os) { os << result; });
  }
  Recording recording =
      request.rerunAfter
          ? recordPipelineFrom(request.text, request.bufferName,
                               request.options, *request.rerunAfter)
          : recordPipeline(request.text, request.bufferName, request.options);
  // Its texts in a file of their own (RecordingWorker.h).
  std::string structure;
  llvm::raw_string_ostream out(structure);
  if (int failed = writeWorkerFile(
          getWorkerTextsPath(resultPath), [&](llvm::raw_ostream &texts) {
            writeRecording(recording, request.irSnapshots, out, texts);
          }))
    return failed;
  return writeWorkerFile(resultPath,
                         [&](llvm::raw_ostream &os) { os << structure; });
}

std::optional<int> executor_studio::runRecordWorkerIfAsked(int argc,
                                                           char **argv) {
  if (argc != 4 || StringRef(argv[1]) != "--record-worker")
    return std::nullopt;
  return runRecordWorker(argv[2], argv[3]);
}
