//===- Launch.cpp - executor/launch: a kernel run from the editor ---------===//
#include "ExecutorLsp/Launch.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/Protocol.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/TargetTripleEdit.h"
#include "ExecutorRuntime/Errors.h"
#include "ExecutorRuntime/ExecutorClient.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace mlir;
using namespace executor_studio;
using namespace executor_studio::lsp;
namespace json = llvm::json;
using executor_studio::runtime::CrashFrame;
using executor_studio::runtime::HostMemRef;
using executor_studio::runtime::ResultSpec;
using llvm::StringRef;

namespace {
HostMemRef toHost(const ShapedArg &arg, const MemRefData &data) {
  HostMemRef m;
  m.sizes = data.sizes;
  m.elementSize = data.elementSize;
  m.bytes = data.bytes;
  m.scalar = arg.scalar;
  return m;
}

/// The crash's diagnostic: at the innermost frame with a line in the
/// document (`file`, lines of chunk `spec`), the others as related
/// information.
std::optional<proto::Diagnostic>
crashDiagnostic(const LaunchSpec &spec, const proto::URIForFile &uri,
                const std::string &kernel, int signal,
                llvm::ArrayRef<CrashFrame> frames) {
  auto position = [&](const CrashFrame &f) {
    return proto::Position(f.line - 1 + spec.lineOffset,
                           f.column ? f.column - 1 : 0);
  };
  auto inDocument = [&](const CrashFrame &f) {
    return f.line > 0 && f.file == uri.file();
  };
  const CrashFrame *faulting = nullptr;
  for (const CrashFrame &f : frames)
    if (inDocument(f)) {
      faulting = &f;
      break;
    }
  if (!faulting)
    return std::nullopt;
  proto::Diagnostic diag;
  diag.source = "executor-launch";
  diag.severity = proto::DiagnosticSeverity::Error;
  proto::Position start = position(*faulting);
  diag.range = proto::Range(start, proto::Position(start.line, start.character + 1));
  diag.message = llvm::formatv("kernel {0} crashed with signal {1} ({2}) here "
                               "(launch of {3} on {4})",
                               kernel.empty() ? spec.entry : kernel, signal,
                               ::strsignal(signal), spec.kernel, spec.address)
                     .str();
  std::vector<proto::DiagnosticRelatedInformation> related;
  for (auto [i, f] : llvm::enumerate(frames)) {
    if (&f == faulting)
      continue;
    std::string text = llvm::formatv("#{0} {1}", i, f.describe()).str();
    proto::Position at = inDocument(f) ? position(f) : start;
    related.emplace_back(proto::Location(uri, proto::Range(at, at)), text);
  }
  if (!related.empty())
    diag.relatedInformation = std::move(related);
  return diag;
}
} // namespace

llvm::Expected<LaunchSpec>
executor_studio::lsp::findLaunch(const TextFile &file,
                                 const LaunchParams &params) {
  StringRef name = params.kernel;
  std::pair<StringRef, StringRef> parts = name.split("::");
  StringRef moduleName = parts.first, entryName = parts.second;
  if (!moduleName.consume_front("@") || !entryName.consume_front("@") ||
      moduleName.empty() || entryName.empty())
    return makeError(proto::ErrorCode::InvalidParams,
                     "kernel \"" + params.kernel +
                         "\" is not a kernel's name; write @module::@entry");
  for (const auto &chunk : file.getChunks()) {
    ModuleOp target;
    for (Operation &top : chunk->parsedIR)
      top.walk([&](ModuleOp module) {
        if (!target &&
            (catalyst::isTarget(module) || catalyst::hasDispatch(module)) &&
            catalyst::getTargetName(module) == moduleName)
          target = module;
      });
    if (!target)
      continue;
    auto func = target.lookupSymbol<func::FuncOp>(entryName);
    if (!func || func.isExternal())
      continue;
    if (!chunk->valid)
      return makeError(proto::ErrorCode::RequestFailed,
                       llvm::formatv("the document has errors (chunk {0}); "
                                     "fix them before launching {1}",
                                     chunk->index, params.kernel));
    LaunchSpec spec;
    spec.kernel = params.kernel;
    spec.module = moduleName.str();
    spec.entry = entryName.str();
    spec.chunk = chunk->index;
    spec.lineOffset = chunk->lineOffset;
    spec.triple = catalyst::getEffectiveTargetTriple(target);
    spec.dispatched = catalyst::hasDispatch(target);
    if (params.address)
      spec.address = *params.address;
    else if (std::optional<std::string> address =
                 catalyst::getDispatchAddress(target))
      spec.address = *address;
    else
      return makeError(proto::ErrorCode::InvalidParams,
                       "@" + spec.module +
                           " is not dispatched to an executor (it has no "
                           "catalyst.dispatch address): give an \"address\"");
    auto describe = [&](llvm::ArrayRef<Type> types, bool isResult,
                        std::vector<ShapedArg> &args) -> llvm::Error {
      for (Type type : types) {
        args.push_back(describeArgument(type, isResult, spec.dispatched));
        if (!args.back().supported)
          return makeError(proto::ErrorCode::RequestFailed,
                           "cannot launch " + spec.kernel + ": " +
                               args.back().why);
      }
      return llvm::Error::success();
    };
    if (llvm::Error err = describe(func.getFunctionType().getInputs(),
                                   /*isResult=*/false, spec.inputs))
      return std::move(err);
    if (llvm::Error err = describe(func.getFunctionType().getResults(),
                                   /*isResult=*/true, spec.results))
      return std::move(err);
    if (params.inputs && params.inputs->size() != spec.inputs.size())
      return makeError(proto::ErrorCode::InvalidParams,
                       argumentCountError(spec.kernel, spec.inputs.size(),
                                          params.inputs->size(),
                                          "\"inputs\""));
    for (auto [i, input] : llvm::enumerate(spec.inputs)) {
      ParsedArgument parsed = params.inputs
                               ? parseInputValue(input, (*params.inputs)[i])
                               : parseInput(input, defaultInputText(input));
      if (!parsed.ok)
        return makeError(proto::ErrorCode::InvalidParams,
                         argumentError(spec.kernel, i, input, parsed.error));
      spec.inputValues.push_back(std::move(parsed.data));
    }
    return spec;
  }
  return makeError(proto::ErrorCode::InvalidParams,
                   "the document has no kernel " + params.kernel +
                       " (a function of a catalyst.target or dispatched "
                       "module)");
}

std::unique_ptr<executor_studio::runtime::ExecutorClient>
executor_studio::lsp::openLaunchSession(const LaunchSpec &spec,
                                        std::chrono::milliseconds timeout,
                                        json::Value &failed) {
  executor_studio::runtime::ClientOptions options;
  options.launchTimeout = timeout;
  auto client =
      executor_studio::runtime::ExecutorClient::open(spec.address, options);
  if (client)
    return std::move(*client);
  failed = json::Object{{"kernel", spec.kernel},
                        {"address", spec.address},
                        {"ok", false},
                        {"error", llvm::toString(client.takeError())}};
  return nullptr;
}

std::string
executor_studio::lsp::retargetTriple(const LaunchSpec &spec,
                                     const std::string &executorTriple) {
  if (!spec.dispatched || executorTriple.empty() ||
      !catalyst::isOtherArchitecture(spec.triple, executorTriple))
    return "";
  return executorTriple;
}

json::Value executor_studio::lsp::runLaunch(
    const LaunchSpec &spec, StringRef workspace, const proto::URIForFile &uri,
    executor_studio::runtime::ExecutorClient &client,
    const std::string &retargetedTo,
    std::vector<proto::Diagnostic> &diagnostics) {
  json::Object result{{"kernel", spec.kernel}, {"address", spec.address}};
  if (!retargetedTo.empty())
    result["retargeted"] = retargetedTo;
  auto failed = [&](std::string error) {
    result["ok"] = false;
    result["error"] = std::move(error);
    return json::Value(std::move(result));
  };
  std::string object = catalyst::getTargetObjectPath(workspace, spec.module);
  if (!llvm::sys::fs::exists(object))
    return failed("the pipeline wrote no object for @" + spec.module);
  if (llvm::Error err = client.sendBinary(object))
    return failed(llvm::toString(std::move(err)));
  std::vector<HostMemRef> inputs;
  for (auto [arg, data] : llvm::zip_equal(spec.inputs, spec.inputValues))
    inputs.push_back(toHost(arg, data));
  std::vector<ResultSpec> results;
  for (const ShapedArg &r : spec.results)
    results.push_back(ResultSpec{static_cast<int64_t>(r.shape.size()),
                                 r.element.size, r.scalar});
  auto out = client.launch(spec.entry, object, inputs, results);
  if (!out) {
    llvm::Error err = out.takeError();
    std::string message;
    json::Array frames;
    err = llvm::handleErrors(
        std::move(err), [&](const executor_studio::runtime::KernelCrashed &crashed) {
          message = llvm::formatv("executor {0}: {1}", crashed.address,
                                  crashed.message)
                        .str();
          result["signal"] = crashed.signal;
          for (const CrashFrame &f : crashed.frames) {
            json::Object frame{{"text", f.describe()}, {"inKernel", f.inKernel}};
            if (f.line > 0) {
              frame["file"] = f.file;
              frame["line"] = static_cast<int64_t>(f.line);
              frame["column"] = static_cast<int64_t>(f.column);
            }
            frames.push_back(std::move(frame));
          }
          if (std::optional<proto::Diagnostic> diag = crashDiagnostic(
                  spec, uri, crashed.kernel, crashed.signal, crashed.frames))
            diagnostics.push_back(std::move(*diag));
        });
    if (err)
      message = llvm::toString(std::move(err));
    result["frames"] = std::move(frames);
    return failed(std::move(message));
  }
  json::Array values;
  for (auto [i, m] : llvm::enumerate(*out)) {
    MemRefData data;
    data.sizes = std::move(m.sizes);
    data.elementSize = m.elementSize;
    data.bytes = std::move(m.bytes);
    values.push_back(resultToJSON(data, spec.results[i]));
  }
  result["ok"] = true;
  result["results"] = std::move(values);
  llvm::consumeError(client.close());
  return json::Value(std::move(result));
}
