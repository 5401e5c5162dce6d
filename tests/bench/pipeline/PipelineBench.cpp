//===- PipelineBench.cpp - the cost of recording a pipeline ---------------===//
//
//   executor-pipeline-bench [--launches N] [--ops-per-launch M] [--json FILE]
//   executor-pipeline-bench --only plain|deferred|deferred-sync|eager|changes|nested
//                           [--runs N]
//     runs one configuration N times and prints its median, nothing else
//     (for a profiler: perf stat -e instructions:u, valgrind --tool=callgrind)
//
// Generates a host program of at least 10,000 ops with 50 dispatched
// launches and measures, in one run (median of 5):
//   1. the recorder through the default pipeline vs the same pipeline run by
//      a plain PassManager (goal: at most 1.5x, with nested recording off),
//      and what recording each target's own lowering (nested recording,
//      down to its assembly) adds;
//   3. the default pipeline with debug info in the kernels
//      (cross-compile-targets{debug=true}, executor-compile -g) vs without;
//   2. the recorder on an upstream-only pipeline (bufferization and the
//      lowering to LLVM) vs `mlir-opt --mlir-print-ir-after-all` on the same
//      pipeline and program (goal: not slower).
//
//
//   executor-pipeline-bench --targets 8,32,128 [--runs N]
//     issue 39, "interactive at any size": N catalyst.target modules, each
//     an 8-element f64 loop kernel that @main launches once, previewed as
//     the language server does (recordInWorker: a worker process recording
//     the default pipeline with each target's own steps, every text sent):
//       first preview (nothing cached), the same document again, the
//       document after an edit in one kernel (a constant: no line moves),
//       and after a line inserted in the middle (the kernels below move),
//     with cross-compile-targets on one thread (jobs=1) and on all cores,
//     against the reference of the same run: one thread without any cache
//     (as before issue 39), where every preview costs a first one. (A
//     build from before the binary form of a recording cannot be the
//     worker: its result is JSON.) Each preview's time includes
//     its reply as the language server writes it (chunkReply, the steps'
//     summaries only, written out: a repeated preview writes the summaries
//     serialized the first time). Then, per N: the reply's bytes
//     against the reply before issue 39, item 3 (every changed text), the
//     bytes of one step's text on demand (`executor/stepText`), and the
//     goals' ratios: the first preview on all cores / on one, a one-kernel
//     edit / the first preview.
//
//===----------------------------------------------------------------------===//
#include "../TargetsProgram.h"
#include "ExecutorLsp/PipelineResults.h"
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Support/Targets.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Registration/Registration.h"
#include "ExecutorStudio/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

using Clock = std::chrono::steady_clock;

namespace {
/// The host program: `launches` blocks of `opsPerLaunch` arith ops feeding a
/// memref that is launched on @compute::@k (dispatched) or, for the
/// upstream-only variant, passed to a local func.call.
std::string generate(int launches, int opsPerLaunch, bool upstreamOnly) {
  std::ostringstream os;
  os << "module @host {\n";
  if (upstreamOnly) {
    os << "  func.func private @k(%x: memref<4xf64>) -> memref<4xf64> {\n"
          "    %y = memref.alloc() : memref<4xf64>\n"
          "    memref.copy %x, %y : memref<4xf64> to memref<4xf64>\n"
          "    return %y : memref<4xf64>\n  }\n";
  }
  os << "  func.func @setup() { return }\n";
  os << "  func.func @main(%seed: f64) -> f64 {\n";
  os << "    %c0 = arith.constant 0 : index\n";
  os << "    %acc0 = arith.addf %seed, %seed : f64\n";
  int value = 0;
  for (int l = 0; l < launches; ++l) {
    std::string prev = l == 0 ? "%acc0" : "%r" + std::to_string(l - 1);
    for (int i = 0; i < opsPerLaunch; ++i) {
      std::string next = "%v" + std::to_string(value++);
      os << "    " << next << " = arith." << (i % 2 ? "mulf " : "addf ") << prev
         << ", %seed : f64\n";
      prev = next;
    }
    os << "    %m" << l << " = memref.alloc() : memref<4xf64>\n";
    os << "    memref.store " << prev << ", %m" << l << "[%c0] : memref<4xf64>\n";
    if (upstreamOnly)
      os << "    %o" << l << " = func.call @k(%m" << l
         << ") : (memref<4xf64>) -> memref<4xf64>\n";
    else
      os << "    %o" << l << " = catalyst.launch_kernel @compute::@k(%m" << l
         << ") : (memref<4xf64>) -> memref<4xf64>\n";
    os << "    %r" << l << " = memref.load %o" << l << "[%c0] : memref<4xf64>\n";
  }
  os << "    return %r" << launches - 1 << " : f64\n  }\n";
  if (!upstreamOnly) {
    os << "  module @compute attributes {catalyst.target = {}, "
          "catalyst.dispatch = {address = \"ADDR:PORT\"}} {\n"
          "    func.func @k(%x: memref<4xf64>) -> memref<4xf64> {\n"
          "      %y = memref.alloc() : memref<4xf64>\n"
          "      memref.copy %x, %y : memref<4xf64> to memref<4xf64>\n"
          "      return %y : memref<4xf64>\n    }\n  }\n";
  }
  os << "}\n";
  return os.str();
}

template <typename Fn> double medianMs(Fn fn, int runs = 5) {
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    fn();
    samples.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    // The copies a recording dropped: not in the next run's time.
    executor_studio::waitForDroppedCopies();
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "executor-pipeline-bench: %s\n", message.c_str());
  std::exit(1);
}
} // namespace

/// CPU time of this process and its finished children, in milliseconds (on
/// a loaded machine the wall clock says little about the work done).
double cpuMs() {
  double ms = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage usage{};
    getrusage(who, &usage);
    for (const timeval &t : {usage.ru_utime, usage.ru_stime})
      ms += t.tv_sec * 1e3 + t.tv_usec / 1e3;
  }
  return ms;
}

/// The bytes of `value` as the language server sends it (compact JSON).
size_t jsonBytes(const llvm::json::Value &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text.size();
}

/// `value` without the sizes issue 39 added to the summaries, as the reply
/// before it had them.
void dropSizes(llvm::json::Value &value) {
  if (llvm::json::Object *object = value.getAsObject()) {
    for (const char *key : {"bytes", "lines", "inputBytes", "inputLines"})
      object->erase(key);
    for (auto &entry : *object)
      dropSizes(entry.second);
  } else if (llvm::json::Array *array = value.getAsArray()) {
    for (llvm::json::Value &element : *array)
      dropSizes(element);
  }
}

/// The options of the preview of `text` (`ir`: "none", the steps'
/// summaries, as the server answers by default, or "changes", every changed
/// text, as it answered before issue 39, item 3).
executor_studio::lsp::PipelineResultOptions
previewOptions(llvm::StringRef ir, const std::string &pipeline) {
  executor_studio::lsp::PipelineResultOptions options;
  options.uri = "file:///bench/targets.mlir";
  options.bufferName = "targets.mlir";
  options.pipeline = pipeline;
  options.setIR(ir);
  return options;
}

/// The bytes of the preview's reply for `recording` of `text` (the steps'
/// summaries) as the language server writes it: a recording the cache
/// keeps (`kept`) answers from the cache of replies when it was answered
/// before, its summaries written as they were serialized then
/// (ChunkReply, MessageOutput.h).
std::string
previewReply(const std::shared_ptr<const executor_studio::Recording> &recording,
             const std::string &text, const std::string &pipeline,
             bool kept = false) {
  auto options = previewOptions("none", pipeline);
  executor_studio::lsp::ChunkReply reply =
      kept ? executor_studio::lsp::chunkReply(recording, text, 0, 0, options)
           : executor_studio::lsp::chunkReply(*recording, text, 0, 0, options);
  reply.head["uri"] = options.uri;
  reply.head["version"] = 1;
  reply.head["recording"] = "0123456789abcdef";
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  os << R"({"id":1,"jsonrpc":"2.0","result":)";
  reply.write(os);
  os << '}';
  return bytes;
}

/// Issue 39's bench (see the top of the file).
int benchTargets(const std::vector<int> &sizes, int runs) {
  using executor_studio::RecordRequest;
  using executor_studio::WorkerRecording;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<128> root;
  if (llvm::sys::fs::createUniqueDirectory("targets-bench", root))
    fail("cannot create a workspace");
  unsigned cores = llvm::hardware_concurrency().compute_thread_count();
  std::printf("previews as the language server records them (a worker process, "
              "nested steps, every text), median of %d; %u cores\n",
              runs, cores);
  std::printf("%5s  %-22s %10s %10s %10s %10s   %s\n", "N", "cross-compile-targets",
              "first", "same doc", "1 edit", "line added",
              "(ms; x = reference / this)");
  int cacheDirs = 0;
  for (int n : sizes) {
    std::string program = generateTargets(n);
    std::string workspace = (root + "/ws" + std::to_string(n)).str();
    double lastCpu = 0; // of the last preview
    size_t lastReplyBytes = 0;
    std::shared_ptr<const executor_studio::Recording> lastRecording;
    catalyst::DefaultPipelineOptions options;
    options.workspace = workspace;
    auto request = [&](const std::string &text, const std::string &extra) {
      RecordRequest r;
      r.text = text;
      r.bufferName = "targets.mlir";
      r.options.pipeline = catalyst::getDefaultPipelineText(options);
      std::string pass = "cross-compile-targets{";
      size_t at = r.options.pipeline.find(pass);
      if (!extra.empty())
        r.options.pipeline.insert(at + pass.size(), extra + " ");
      r.options.deferText = false; // the server's Changes mode
      r.options.recordNested = true;
      return r;
    };
    auto preview = [&](const RecordRequest &r, bool cached) {
      auto start = Clock::now();
      double cpuStart = cpuMs();
      WorkerRecording run =
          cached ? executor_studio::recordInWorker(r, self, std::chrono::minutes(10))
                 : executor_studio::recordInWorkerUncached(
                       r, self, std::chrono::minutes(10));
      if (run.status != WorkerRecording::Status::Finished || !run.recording->succeeded)
        fail("preview of " + std::to_string(n) + " targets failed: " + run.error);
      // The reply the server writes: the summaries.
      lastReplyBytes = previewReply(run.recording, r.text, r.options.pipeline,
                                    !run.cacheId.empty())
                           .size();
      double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      lastCpu = cpuMs() - cpuStart;
      lastRecording = std::move(run.recording);
      return ms;
    };
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    // The reference: one thread, no cache (every preview is a first one).
    std::vector<double> uncached, uncachedCpu;
    for (int i = 0; i < runs; ++i) {
      uncached.push_back(preview(request(program, "jobs=1 cache=false"), false));
      uncachedCpu.push_back(lastCpu);
    }
    double refCpu = median(uncachedCpu);
    double ref = median(uncached);
    std::printf("%5d  %-22s %10.1f %10s %10s %10s   (reference)   CPU: %.0f ms\n", n,
                "jobs=1 cache=false", ref, "same", "same", "same", refCpu);
    int editValue = 1000;
    double firstOneCore = 0;
    for (const char *jobs : {"jobs=1", "jobs=0"}) {
      std::vector<double> first, same, edited, firstCpu, editedCpu, moved;
      for (int i = 0; i < runs; ++i) {
        // Nothing cached: a new cache directory, the recordings dropped.
        std::string cache = (root + "/cache" + std::to_string(cacheDirs++)).str();
        ::setenv("EXECUTOR_STUDIO_CACHE_DIR", cache.c_str(), 1);
        executor_studio::setRecordingCacheLimit(0);
        executor_studio::setRecordingCacheLimit(size_t(256) << 20);
        RecordRequest r = request(program, jobs);
        first.push_back(preview(r, true));
        firstCpu.push_back(lastCpu);
        same.push_back(preview(r, true));
        edited.push_back(preview(
            request(generateTargets(n, n / 2, editValue++), jobs), true));
        editedCpu.push_back(lastCpu);
        // A line inserted in the middle: the kernels below it move.
        moved.push_back(preview(
            request(generateTargets(n, -1, 0, n / 2), jobs), true));
        // (The base again, for the next run: from the recording cache.)
      }
      double f = median(first), s = median(same), e = median(edited);
      double m = median(moved);
      std::printf("%5d  %-22s %10.1f %10.2f %10.1f %10.1f   x%.2f / x%.0f / x%.2f / x%.2f"
                  "   CPU: first %.0f ms x%.2f, edit %.0f ms x%.2f\n", n,
                  (std::string(jobs) + (std::string(jobs) == "jobs=0" ? " (all cores)" : "")).c_str(),
                  f, s, e, m, ref / f, ref / std::max(s, 0.001), ref / e, ref / m,
                  median(firstCpu), refCpu / median(firstCpu), median(editedCpu),
                  refCpu / median(editedCpu));
      if (std::string(jobs) == "jobs=1") {
        firstOneCore = f;
        continue;
      }
      std::printf("%5d  goals: repeated preview %.2f ms (< 20 ms); one-kernel "
                  "edit / first preview %.2f (< 0.15); first preview all cores "
                  "/ one core %.2f (<= 0.65 at N >= 32)\n",
                  n, s, e / f, f / firstOneCore);
    }
    // The reply's bytes: the summaries against every changed text, as the
    // server answered before (one recording: the document's, from the cache).
    preview(request(program, "jobs=0"), true);
    // The reply written directly (its summaries serialized once) is byte
    // for byte the transport's JSON of the same reply.
    {
      std::string pipeline = request(program, "jobs=0").options.pipeline;
      llvm::json::Object result = executor_studio::lsp::chunkResultToJSON(
          *lastRecording, program, 0, 0, previewOptions("none", pipeline));
      result["uri"] = "file:///bench/targets.mlir";
      result["version"] = 1;
      result["recording"] = "0123456789abcdef";
      llvm::json::Object message{
          {"jsonrpc", "2.0"}, {"id", 1}, {"result", std::move(result)}};
      std::string json;
      llvm::raw_string_ostream os(json);
      os << llvm::json::Value(std::move(message));
      if (json != previewReply(lastRecording, program, pipeline, true))
        fail("the reply written directly differs from its JSON");
    }
    llvm::json::Value full(executor_studio::lsp::chunkResultToJSON(
        *lastRecording, program, 0, 0,
        previewOptions("changes", request(program, "").options.pipeline)));
    dropSizes(full);
    size_t fullBytes = jsonBytes(full);
    // One step's text on demand: the snapshot after cross-compile-targets.
    size_t stepBytes = 0;
    for (const executor_studio::Snapshot &snapshot : lastRecording->snapshots) {
      if (snapshot.pass != "cross-compile-targets")
        continue;
      auto text = executor_studio::lsp::stepTextToJSON(
          *lastRecording, snapshot.index, std::nullopt);
      if (!text)
        fail(llvm::toString(text.takeError()));
      stepBytes = jsonBytes(llvm::json::Value(std::move(*text)));
    }
    std::printf("%5d  reply bytes: summaries %zu vs every changed text (before "
                "issue 39, item 3) %zu: %.1f%% (goal < 10%%); one step's text "
                "on demand (after cross-compile-targets): %zu\n",
                n, lastReplyBytes, fullBytes,
                100.0 * lastReplyBytes / std::max<size_t>(fullBytes, 1),
                stepBytes);
    ::unsetenv("EXECUTOR_STUDIO_CACHE_DIR");
  }
  llvm::sys::fs::remove_directories(root);
  return 0;
}

int main(int argc, char **argv) {
  // LLVM's targets, as the tools register them (Targets.h).
  executor_studio::initializeTargets();
  // The previews of --targets record in this program's own worker.
  if (std::optional<int> worker = executor_studio::runRecordWorkerIfAsked(argc, argv))
    return *worker;
  int launches = 50, opsPerLaunch = 200, runs = 9;
  std::string jsonPath, only;
  std::vector<int> targetSizes;
  bool runsGiven = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--launches" && i + 1 < argc)
      launches = std::atoi(argv[++i]);
    else if (arg == "--ops-per-launch" && i + 1 < argc)
      opsPerLaunch = std::atoi(argv[++i]);
    else if (arg == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
    else if (arg == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
      runsGiven = true;
    } else if (arg == "--targets" && i + 1 < argc) {
      for (llvm::StringRef rest = argv[++i]; !rest.empty();) {
        auto [size, tail] = rest.split(',');
        targetSizes.push_back(std::max(1, std::atoi(size.str().c_str())));
        rest = tail;
      }
    }
    else if (arg == "--only" && i + 1 < argc)
      only = argv[++i];
    else
      fail("usage: executor-pipeline-bench [--launches N] [--ops-per-launch M] [--runs N] "
           "[--json FILE] [--only plain|deferred|eager|changes|nested] "
           "| --targets N[,N...] [--runs N]");
  }
  executor_studio::registerAllPasses();
  if (!targetSizes.empty())
    return benchTargets(targetSizes, runsGiven ? runs : 3);
  llvm::SmallString<128> workspace;
  if (llvm::sys::fs::createUniqueDirectory("pipeline-bench", workspace))
    fail("cannot create a workspace");
  std::string program = generate(launches, opsPerLaunch, false);
  std::string upstream = generate(launches, opsPerLaunch, true);
  size_t ops = std::count(program.begin(), program.end(), '\n');

  catalyst::DefaultPipelineOptions options;
  options.workspace = workspace.str().str();
  std::string pipeline = catalyst::getDefaultPipelineText(options);

  // 1. Recorder vs plain PassManager, same pipeline, parse included in both.
  mlir::DialectRegistry registry;
  executor_studio::registerAllDialects(registry);
  // A plain PassManager running `text`, parse included.
  auto runPipeline = [&](const std::string &text) {
    mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
    auto module = mlir::parseSourceString<mlir::ModuleOp>(program, &ctx);
    if (!module)
      fail("generated program does not parse");
    mlir::PassManager pm(&ctx, mlir::ModuleOp::getOperationName());
    std::string errors;
    llvm::raw_string_ostream os(errors);
    if (!executor_studio::parsePipelineInto(text, pm, os))
      fail(errors);
    if (mlir::failed(pm.run(*module)))
      fail("pipeline failed: " + text);
  };
  auto runPlain = [&] { runPipeline(pipeline); };
  size_t snapshots = 0;
  // The recorder as the front ends use it: the studio defers the text (only
  // the snapshots it shows are printed), the language server and the driver
  // print every snapshot.
  size_t nestedSteps = 0;
  auto record = [&](bool deferText, bool printAll, bool nested = false) {
    executor_studio::RecordOptions ro;
    ro.pipeline = pipeline;
    ro.deferText = deferText;
    ro.recordNested = nested;
    auto recording = executor_studio::recordPipeline(program, "bench.mlir", ro);
    if (!recording.succeeded)
      fail("recorded pipeline failed");
    snapshots = recording.snapshots.size();
    if (nested) {
      nestedSteps = 0;
      for (const auto &snapshot : recording.snapshots)
        nestedSteps += snapshot.nested.size();
      if (nestedSteps == 0)
        fail("nested recording recorded no target steps");
    }
    if (printAll)
      for (const auto &snapshot : recording.snapshots)
        if (snapshot.ir->empty())
          fail("empty snapshot");
  };
  auto runRecorded = [&] { record(/*deferText=*/true, /*printAll=*/false); };
  auto runEager = [&] { record(false, false); };
  auto runDeferredAll = [&] { record(true, true); };
  auto runNested = [&] { record(true, false, /*nested=*/true); };
  // The recorder destroys the copies of a dropped recording on a thread of
  // its own (and with the last of them its context and module): the runs
  // below stop the clock when the recording is dropped and wait for that
  // thread afterwards, so that its work does not fall into the next run.
  // This one waits before the clock stops: the whole work on one thread.
  auto runDeferredSync = [&] {
    runRecorded();
    executor_studio::waitForDroppedCopies();
  };
  auto runChangesOnly = [&] {
    executor_studio::RecordOptions ro;
    ro.pipeline = pipeline;
    ro.recordIR = false;
    auto recording = executor_studio::recordPipeline(program, "bench.mlir", ro);
    if (!recording.succeeded)
      fail("recorded pipeline failed");
  };
  if (!only.empty()) {
    std::function<void()> one = only == "plain"      ? std::function<void()>(runPlain)
                                : only == "deferred" ? std::function<void()>(runRecorded)
                                : only == "deferred-sync"
                                    ? std::function<void()>(runDeferredSync)
                                : only == "eager"    ? std::function<void()>(runEager)
                                : only == "changes"  ? std::function<void()>(runChangesOnly)
                                : only == "nested"   ? std::function<void()>(runNested)
                                                     : nullptr;
    if (!one)
      fail("--only takes plain, deferred, deferred-sync, eager, changes or nested");
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
      auto start = Clock::now();
      one();
      ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      executor_studio::waitForDroppedCopies();
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%s: %.1f ms (median of %d)\n", only.c_str(), ms[ms.size() / 2], runs);
    llvm::sys::fs::remove_directories(workspace);
    return 0;
  }
  // Interleaved, so that the machine's load drifts over all three alike.
  std::vector<double> plainMs, recordedMs, changesOnlyMs, eagerMs, deferredAllMs,
      nestedMs, deferredSyncMs;
  auto time = [](auto &&fn) {
    auto start = Clock::now();
    fn();
    double ms =
        std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    executor_studio::waitForDroppedCopies(); // not in the next run's time
    return ms;
  };
  for (int i = 0; i < runs; ++i) {
    plainMs.push_back(time(runPlain));
    recordedMs.push_back(time(runRecorded));
    changesOnlyMs.push_back(time(runChangesOnly));
    eagerMs.push_back(time(runEager));
    deferredAllMs.push_back(time(runDeferredAll));
    nestedMs.push_back(time(runNested));
    deferredSyncMs.push_back(time(runDeferredSync));
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  double plain = median(plainMs), recorded = median(recordedMs),
         changesOnly = median(changesOnlyMs), eager = median(eagerMs),
         deferredAll = median(deferredAllMs), nested = median(nestedMs),
         deferredSync = median(deferredSyncMs);

  // 3. Debug info in the kernels: the same pipeline with debug=true, plain
  // PassManager, interleaved with runs without it.
  catalyst::DefaultPipelineOptions debugOptions = options;
  debugOptions.debug = true;
  std::string debugPipeline = catalyst::getDefaultPipelineText(debugOptions);
  std::vector<double> withoutDebugMs, withDebugMs;
  for (int i = 0; i < runs; ++i) {
    withoutDebugMs.push_back(time([&] { runPipeline(pipeline); }));
    withDebugMs.push_back(time([&] { runPipeline(debugPipeline); }));
  }
  double withoutDebug = median(withoutDebugMs), withDebug = median(withDebugMs);

  // 2. Upstream-only pipeline: recorder vs mlir-opt --mlir-print-ir-after-all.
  std::string upstreamPipeline =
      "builtin.module(one-shot-bufferize{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map}," +
      std::string("func.func(convert-linalg-to-loops),expand-strided-metadata,"
                  "lower-affine,convert-scf-to-cf,convert-math-to-llvm,"
                  "convert-arith-to-llvm,convert-index-to-llvm,"
                  "finalize-memref-to-llvm,convert-cf-to-llvm,"
                  "convert-func-to-llvm,reconcile-unrealized-casts)");
  double ours = medianMs([&] {
    executor_studio::RecordOptions ro;
    ro.pipeline = upstreamPipeline;
    auto recording = executor_studio::recordPipeline(upstream, "bench.mlir", ro);
    if (!recording.succeeded)
      fail("upstream pipeline failed in the recorder");
  });
  std::string input = (workspace + "/upstream.mlir").str();
  std::string dump = (workspace + "/print-ir-after-all.txt").str();
  std::ofstream(input) << upstream;
  std::string mlirOpt = MLIR_OPT_PATH;
  std::string pipelineArg = "--pass-pipeline=" + upstreamPipeline;
  llvm::SmallVector<llvm::StringRef> args = {
      mlirOpt, input, pipelineArg, "--mlir-print-ir-after-all",
      "--mlir-disable-threading", "-o", "/dev/null"};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef("/dev/null"),
                                                llvm::StringRef(dump)};
  double reference = medianMs([&] {
    std::string error;
    if (llvm::sys::ExecuteAndWait(mlirOpt, args, std::nullopt, redirects, 0, 0,
                                  &error) != 0)
      fail("mlir-opt failed: " + error);
  });
  llvm::sys::fs::remove_directories(workspace);

  std::printf("host program: %zu lines (ops), %d dispatched launches\n", ops, launches);
  std::printf("default pipeline (%zu passes run), median of %d interleaved runs, parse included:\n",
              snapshots, runs);
  std::printf("  plain PassManager                 %8.1f ms (reference)\n", plain);
  std::printf("  pipeline recorder (text deferred) %8.1f ms  %.2fx (goal <= 1.5x: %s)\n",
              recorded, recorded / plain,
              recorded / plain <= 1.5 ? "holds" : "missed");
  std::printf("  text deferred, copies destroyed   %8.1f ms  %.2fx (the recorder's "
              "thread that destroys dropped copies waited for)\n",
              deferredSync, deferredSync / plain);
  std::printf("  recorder, every text printed      %8.1f ms  %.2fx\n", eager,
              eager / plain);
  std::printf("  deferred, then every text asked   %8.1f ms  %.2fx\n",
              deferredAll, deferredAll / plain);
  std::printf("  recorder, timing and changes only %8.1f ms  %.2fx\n",
              changesOnly, changesOnly / plain);
  std::printf("  recorder, nested recording on     %8.1f ms  %.2fx (+%.1f ms "
              "over text deferred for %zu target steps, to assembly)\n",
              nested, nested / plain, nested - recorded, nestedSteps);
  std::printf("kernels with debug info (executor-compile -g), median of %d interleaved runs:\n",
              runs);
  std::printf("  default pipeline                  %8.1f ms (reference)\n", withoutDebug);
  std::printf("  default pipeline, debug=true      %8.1f ms  %.2fx\n", withDebug,
              withDebug / withoutDebug);
  std::printf("upstream-only pipeline (bufferize + lower to LLVM), median of 5:\n");
  std::printf("  mlir-opt --mlir-print-ir-after-all %8.1f ms (reference, whole process)\n",
              reference);
  std::printf("  pipeline recorder                 %8.1f ms  %.2fx (goal <= 1.0x)\n",
              ours, ours / reference);
  if (!jsonPath.empty()) {
    std::ofstream json(jsonPath);
    json << "{\n  \"ops\": " << ops << ",\n  \"launches\": " << launches
         << ",\n  \"plain_ms\": " << plain << ",\n  \"recorded_ms\": " << recorded
         << ",\n  \"recorded_vs_plain\": " << recorded / plain
         << ",\n  \"recorded_copies_destroyed_ms\": " << deferredSync
         << ",\n  \"changes_only_ms\": " << changesOnly
         << ",\n  \"every_text_printed_ms\": " << eager
         << ",\n  \"deferred_then_every_text_ms\": " << deferredAll
         << ",\n  \"nested_recording_ms\": " << nested
         << ",\n  \"nested_vs_plain\": " << nested / plain
         << ",\n  \"mlir_opt_print_ir_after_all_ms\": " << reference
         << ",\n  \"recorder_upstream_ms\": " << ours
         << ",\n  \"recorder_vs_mlir_opt\": " << ours / reference
         << ",\n  \"pipeline_ms\": " << withoutDebug
         << ",\n  \"pipeline_debug_ms\": " << withDebug
         << ",\n  \"debug_vs_plain\": " << withDebug / withoutDebug << "\n}\n";
  }
  return 0;
}
