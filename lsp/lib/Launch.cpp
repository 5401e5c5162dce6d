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

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace executor_studio::lsp;
namespace json = llvm::json;
using executor_studio::runtime::CrashFrame;
using executor_studio::runtime::HostMemRef;
using executor_studio::runtime::ResultSpec;
using llvm::StringRef;

namespace {
/// `type` as a launch carries it, or why it cannot.
std::optional<LaunchSpec::Value> describeValue(Type type, std::string &why) {
  LaunchSpec::Value value;
  Type element = type;
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!isa<MemRefType, RankedTensorType>(type) || !shaped.hasStaticShape()) {
      llvm::raw_string_ostream(why) << "a launch from the editor takes memrefs "
                                       "of static shape and scalars, not ";
      llvm::raw_string_ostream(why) << type;
      return std::nullopt;
    }
    value.sizes.assign(shaped.getShape().begin(), shaped.getShape().end());
    element = shaped.getElementType();
  } else {
    value.scalar = true;
  }
  if (isa<IndexType>(element)) {
    value.kind = 'i';
    value.bytes = 8;
  } else if (auto f = dyn_cast<FloatType>(element);
             f && (f.getWidth() == 32 || f.getWidth() == 64)) {
    value.kind = 'f';
    value.bytes = f.getWidth() / 8;
  } else if (auto i = dyn_cast<IntegerType>(element);
             i && llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth())) {
    value.kind = 'i';
    value.bytes = i.getWidth() / 8;
  } else {
    llvm::raw_string_ostream(why)
        << "a launch from the editor takes f32, f64, i8 to i64 and index "
           "elements, not ";
    llvm::raw_string_ostream(why) << element;
    return std::nullopt;
  }
  return value;
}

int64_t countOf(const LaunchSpec::Value &value) {
  int64_t n = 1;
  for (int64_t s : value.sizes)
    n *= s;
  return n;
}

/// The numbers of `value`, flattened (nested arrays row-major).
bool flatten(const json::Value &value, std::vector<double> &out) {
  if (std::optional<double> number = value.getAsNumber()) {
    out.push_back(*number);
    return true;
  }
  const json::Array *array = value.getAsArray();
  if (!array)
    return false;
  for (const json::Value &item : *array)
    if (!flatten(item, out))
      return false;
  return true;
}

HostMemRef toHost(const LaunchSpec::Value &value) {
  HostMemRef m;
  m.sizes = value.sizes;
  m.elementSize = value.bytes;
  m.scalar = value.scalar;
  m.bytes.resize(value.elements.size() * value.bytes);
  for (size_t i = 0; i < value.elements.size(); ++i) {
    char *at = m.bytes.data() + i * value.bytes;
    double v = value.elements[i];
    auto put = [&](auto x) { std::memcpy(at, &x, sizeof(x)); };
    if (value.kind == 'f')
      value.bytes == 4 ? put(float(v)) : put(v);
    else if (value.bytes == 1)
      put(int8_t(v));
    else if (value.bytes == 2)
      put(int16_t(v));
    else if (value.bytes == 4)
      put(int32_t(v));
    else
      put(int64_t(v));
  }
  return m;
}

json::Value fromHost(const HostMemRef &m, const LaunchSpec::Value &spec) {
  json::Array values;
  size_t count = spec.bytes ? m.bytes.size() / spec.bytes : 0;
  for (size_t i = 0; i < count; ++i) {
    const char *at = m.bytes.data() + i * spec.bytes;
    auto get = [&](auto x) {
      std::memcpy(&x, at, sizeof(x));
      return x;
    };
    if (spec.kind == 'f') {
      double v = spec.bytes == 4 ? double(get(float())) : get(double());
      // JSON has no NaN or infinities.
      values.push_back(std::isfinite(v) ? json::Value(v) : json::Value(nullptr));
    }
    else if (spec.bytes == 1)
      values.push_back(int64_t(get(int8_t())));
    else if (spec.bytes == 2)
      values.push_back(int64_t(get(int16_t())));
    else if (spec.bytes == 4)
      values.push_back(int64_t(get(int32_t())));
    else
      values.push_back(get(int64_t()));
  }
  if (m.scalar && values.size() == 1)
    return std::move(values.front());
  json::Array sizes;
  for (int64_t size : m.sizes)
    sizes.push_back(size);
  return json::Object{{"sizes", std::move(sizes)}, {"values", std::move(values)}};
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
    std::string why;
    for (Type type : func.getFunctionType().getInputs()) {
      std::optional<LaunchSpec::Value> value = describeValue(type, why);
      if (!value)
        return makeError(proto::ErrorCode::RequestFailed,
                         "cannot launch " + spec.kernel + ": " + why);
      spec.inputs.push_back(std::move(*value));
    }
    for (Type type : func.getFunctionType().getResults()) {
      std::optional<LaunchSpec::Value> value = describeValue(type, why);
      if (!value)
        return makeError(proto::ErrorCode::RequestFailed,
                         "cannot launch " + spec.kernel + ": " + why);
      spec.results.push_back(std::move(*value));
    }
    if (params.inputs && params.inputs->size() != spec.inputs.size())
      return makeError(proto::ErrorCode::InvalidParams,
                       llvm::formatv("{0} takes {1} argument(s); \"inputs\" "
                                     "has {2}",
                                     spec.kernel, spec.inputs.size(),
                                     params.inputs->size()));
    for (auto [i, input] : llvm::enumerate(spec.inputs)) {
      int64_t count = countOf(input);
      if (!params.inputs) {
        for (int64_t k = 0; k < count; ++k)
          input.elements.push_back(double(k + 1));
        continue;
      }
      if (!flatten((*params.inputs)[i], input.elements) ||
          static_cast<int64_t>(input.elements.size()) != count)
        return makeError(proto::ErrorCode::InvalidParams,
                         llvm::formatv("input {0} of {1} must be {2} "
                                       "number(s); it is not",
                                       i, spec.kernel, count));
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
  for (const LaunchSpec::Value &input : spec.inputs)
    inputs.push_back(toHost(input));
  std::vector<ResultSpec> results;
  for (const LaunchSpec::Value &r : spec.results)
    results.push_back(ResultSpec{static_cast<int64_t>(r.sizes.size()),
                                 static_cast<int64_t>(r.bytes), r.scalar});
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
  for (auto [i, m] : llvm::enumerate(*out))
    values.push_back(fromHost(m, spec.results[i]));
  result["ok"] = true;
  result["results"] = std::move(values);
  llvm::consumeError(client.close());
  return json::Value(std::move(result));
}
