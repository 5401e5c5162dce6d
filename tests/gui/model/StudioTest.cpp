//===- StudioTest.cpp - document, recording, kernels, launches ------------===//
#include "StudioModel/Studio.h"
#include "StudioModel/IrText.h"
#include "ExecutorStudio/Pipeline/OpHistory.h"
#include "ExecutorStudio/Pipeline/RecordingWorker.h"

#include "TargetPrograms.h"
#include "TestFiles.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <thread>

using namespace executor_studio;
using namespace executor_studio::gui;
using executor_studio::SourceLineMap;
using executor_studio::mapSourceLines;
using executor_studio::SnapshotKind;
using namespace std::chrono_literals;

namespace {
StudioOptions options() {
  StudioOptions o;
  o.executor.serverPath = EXECUTOR_SERVER_PATH;
  return o;
}

std::vector<double> doubles(const MemRefData &d) {
  std::vector<double> v(d.bytes.size() / 8);
  std::memcpy(v.data(), d.bytes.data(), d.bytes.size());
  return v;
}

const LaunchRecord &launchAndWait(Studio &studio, const std::string &kernel,
                                  bool async = false) {
  int k = studio.findKernel(kernel);
  EXPECT_GE(k, 0) << kernel;
  uint64_t id = studio.launch(static_cast<size_t>(k), async);
  EXPECT_NE(id, 0u) << studio.status();
  EXPECT_TRUE(studio.executor().waitIdle(30s));
  const LaunchRecord *r = studio.executor().findLaunch(id);
  static LaunchRecord none;
  return r ? *r : none;
}
} // namespace

TEST(Studio, RecordsTheDefaultPipelineAndLaunchesTheKernels) {
  Studio studio(options());
  ASSERT_TRUE(studio.open(SAMPLES_DIR "/cross-compile-dispatch.mlir"));
  ASSERT_TRUE(studio.waitForRecording(60s));
  PipelineModel &passes = studio.passes();
  ASSERT_TRUE(passes.recording().succeeded) << studio.status();
  ASSERT_GE(passes.passCount(), 5u);
  EXPECT_EQ(passes.pass(0).pass, "lower-runtime-dispatch");
  bool sawCrossCompile = false;
  for (size_t i = 0; i < passes.passCount(); ++i)
    sawCrossCompile |= passes.pass(i).pass == "cross-compile-targets";
  EXPECT_TRUE(sawCrossCompile);
  // It opens at the first pass that changed something.
  ASSERT_GE(passes.selected(), 0);
  EXPECT_TRUE(passes.pass(passes.selected()).changed);
  for (int i = 0; i < passes.selected(); ++i)
    EXPECT_FALSE(passes.pass(i).changed) << passes.pass(i).pass;
  EXPECT_NE(studio.recordedPipeline().find("workspace=" + studio.workspace()),
            std::string::npos)
      << studio.recordedPipeline();
  // The kernels, their objects built by the recording.
  ASSERT_EQ(studio.kernels().size(), 3u);
  for (const Kernel &k : studio.kernels())
    EXPECT_TRUE(std::filesystem::exists(k.object)) << k.object;
  EXPECT_EQ(studio.inputText(0, 0), "[1, 2, 3, 4]");

  studio.executor().startLocal();
  ASSERT_TRUE(studio.executor().waitIdle(20s));
  ASSERT_EQ(studio.executor().state(), ExecutorState::Connected)
      << studio.executor().error();
  const LaunchRecord &square = launchAndWait(studio, "square");
  ASSERT_EQ(square.status, LaunchRecord::Status::Done) << square.error;
  EXPECT_EQ(doubles(square.results[0]), (std::vector<double>{1, 4, 9, 16}));
  studio.inputText(1, 0) = "[1, 4, 9, 16]";
  const LaunchRecord &scale = launchAndWait(studio, "compute::scale");
  ASSERT_EQ(scale.status, LaunchRecord::Status::Done) << scale.error;
  EXPECT_EQ(doubles(scale.results[0]), (std::vector<double>{0.5, 2, 4.5, 8}));
  // A local target's object runs on the executor just as well.
  std::string error;
  ASSERT_TRUE(studio.setInputsFromJson(2, "[{\"iota\": 1}]", error)) << error;
  const LaunchRecord &sum = launchAndWait(studio, "@local::@sum", true);
  ASSERT_EQ(sum.status, LaunchRecord::Status::Done) << sum.error;
  EXPECT_EQ(doubles(sum.results[0]), std::vector<double>{10});
  EXPECT_EQ(formatValues(sum.results[0], sum.resultTypes[0].element), "[10]");
}

TEST(Studio, BadInputsAreRefusedBeforeTheyReachTheExecutor) {
  Studio studio(options());
  ASSERT_TRUE(studio.open(SAMPLES_DIR "/cross-compile-dispatch.mlir"));
  ASSERT_TRUE(studio.waitForRecording(60s));
  ASSERT_FALSE(studio.kernels().empty());
  studio.inputText(0, 0) = "[1, 2]";
  LaunchRequest request;
  std::string error;
  EXPECT_FALSE(studio.buildLaunch(0, false, request, error));
  EXPECT_NE(error.find("does not fit memref<4xf64>"), std::string::npos) << error;
  EXPECT_EQ(studio.launch(0, false), 0u);
  EXPECT_TRUE(studio.statusIsError());
  EXPECT_FALSE(studio.setInputsFromJson(0, "[1, 2]", error));
  EXPECT_NE(error.find("takes 1 argument"), std::string::npos) << error;
  EXPECT_FALSE(studio.setInputsFromJson(0, "{}", error));
  // Not connected: refused with a reason.
  studio.inputText(0, 0) = "[1, 2, 3, 4]";
  EXPECT_EQ(studio.launch(0, false), 0u);
  EXPECT_TRUE(studio.statusIsError());
  EXPECT_NE(studio.status().find("connect first"), std::string::npos) << studio.status();
}

TEST(Studio, ATypedPipelineStillGetsObjectsToLaunch) {
  Studio studio(options());
  studio.setPipelineText("  builtin.module(cse, canonicalize) ");
  ASSERT_TRUE(studio.open(SAMPLES_DIR "/cross-compile-dispatch.mlir"));
  ASSERT_TRUE(studio.waitForRecording(60s));
  EXPECT_EQ(studio.recordedPipeline(), "builtin.module(cse, canonicalize)");
  ASSERT_EQ(studio.passes().passCount(), 2u);
  EXPECT_EQ(studio.passes().pass(0).pass, "cse");
  ASSERT_EQ(studio.kernels().size(), 3u);
  EXPECT_TRUE(std::filesystem::exists(studio.kernels()[0].object))
      << studio.kernels()[0].object << ": " << studio.kernelsNote();
  EXPECT_NE(studio.kernelsNote().find("default pipeline"), std::string::npos);
  // Back to the default pipeline.
  studio.setPipelineText("");
  ASSERT_TRUE(studio.waitForRecording(60s));
  EXPECT_GE(studio.passes().passCount(), 5u);
}

TEST(Studio, ADocumentThatDoesNotParseShowsItsDiagnostics) {
  Studio studio(options());
  ASSERT_TRUE(studio.open(BAD_INPUT));
  ASSERT_TRUE(studio.waitForRecording(60s));
  EXPECT_TRUE(studio.statusIsError());
  EXPECT_NE(studio.status().find("does not parse"), std::string::npos) << studio.status();
  PipelineModel &passes = studio.passes();
  EXPECT_EQ(passes.passCount(), 0u);
  ASSERT_EQ(passes.errorCount(), 1u);
  EXPECT_EQ(passes.diagnostics()[0].line, 5u);
  EXPECT_EQ(passes.viewMode(), ViewMode::Source);
  EXPECT_TRUE(studio.kernels().empty());
  EXPECT_FALSE(studio.kernelsNote().empty());
  // Stepping does nothing, and nothing breaks.
  EXPECT_FALSE(passes.next());
  EXPECT_FALSE(passes.nextChanged());
  EXPECT_EQ(studio.launchSelected(false), 0u);
  passes.jumpTo(passes.diagnostics()[0]);
  passes.refresh();
  EXPECT_EQ(passes.takeScrollRequest(), 4u);
}

TEST(Studio, ReloadsWhenTheFileChanges) {
  std::string path = ::testing::TempDir() + "/studio-reload.mlir";
  std::ofstream(path) << "func.func @f() {\n  return\n}\n";
  Studio studio(options());
  studio.setPipelineText("builtin.module(cse)");
  ASSERT_TRUE(studio.open(path));
  ASSERT_TRUE(studio.waitForRecording(60s));
  uint64_t generation = studio.recordingGeneration();
  EXPECT_EQ(studio.passes().errorCount(), 0u);
  std::this_thread::sleep_for(20ms);
  std::ofstream(path) << "func.func @f() {\n  return %x\n}\n";
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (studio.recordingGeneration() == generation &&
         std::chrono::steady_clock::now() < deadline) {
    studio.update();
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_GT(studio.recordingGeneration(), generation);
  EXPECT_EQ(studio.passes().errorCount(), 1u);
  EXPECT_EQ(studio.passes().viewMode(), ViewMode::Source); // where the error is
  // Off: no reload.
  studio.setAutoReload(false);
  generation = studio.recordingGeneration();
  std::ofstream(path) << "func.func @f() {\n  return\n}\n";
  for (int i = 0; i < 40; ++i) {
    studio.update();
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(studio.recordingGeneration(), generation);
  EXPECT_TRUE(studio.reload());
  ASSERT_TRUE(studio.waitForRecording(60s));
  EXPECT_EQ(studio.passes().errorCount(), 0u);
  EXPECT_EQ(studio.passes().viewMode(), ViewMode::SideBySide); // fixed: the diff again
  EXPECT_FALSE(studio.open("/no/such/file.mlir"));
  EXPECT_TRUE(studio.statusIsError());
}

// "Launch under debugger": the session (of a local executor-server
// --debug-wait the model starts) waits; the gdb command the studio shows,
// run as printed (plus -batch and what to print), attaches, stops in the
// kernel at its .mlir line with its argument; then the launch completes.
TEST(Studio, LaunchUnderDebuggerWaitsForGdbWhichStopsInTheKernel) {
  if (!llvm::sys::findProgramByName("gdb"))
    GTEST_SKIP() << "no gdb";
  Studio studio(options());
  studio.setDebugBuild(true);
  ASSERT_TRUE(studio.open(SAMPLES_DIR "/cross-compile-dispatch.mlir"));
  ASSERT_TRUE(studio.waitForRecording(60s));
  ASSERT_NE(studio.recordedPipeline().find("debug=true"), std::string::npos);
  int k = studio.findKernel("square");
  ASSERT_GE(k, 0);
  ExecutorModel &executor = studio.executor();
  uint64_t id = studio.launchUnderDebugger(static_cast<size_t>(k));
  ASSERT_NE(id, 0u) << studio.status();
  // No second one while this one is under the debugger.
  EXPECT_FALSE(executor.canLaunchUnderDebugger());
  // The executor says the session waits: its PID, and the commands.
  auto deadline = std::chrono::steady_clock::now() + 60s;
  while (executor.debugLaunch().phase != DebugLaunch::Phase::Waiting &&
         std::chrono::steady_clock::now() < deadline) {
    executor.drain();
    std::this_thread::sleep_for(10ms);
  }
  const DebugLaunch &d = executor.debugLaunch();
  ASSERT_EQ(d.phase, DebugLaunch::Phase::Waiting) << debugPhaseName(d.phase);
  EXPECT_EQ(d.launchId, id);
  EXPECT_TRUE(d.local);
  ASSERT_GT(d.pid, 0);
  EXPECT_NE(d.executable.find("executor-server"), std::string::npos) << d.executable;
  std::string pid = std::to_string(d.pid);
  EXPECT_EQ(d.gdbCommand, "gdb -q " + d.executable + " -p " + pid +
                              " -ex 'break square' -ex continue");
  EXPECT_NE(d.lldbCommand.find(" " + d.executable + " -p " + pid +
                               " -o 'process handle SIGSTOP -s false -n false "
                               "-p false' -o 'breakpoint set --name square' -o continue"),
            std::string::npos)
      << d.lldbCommand;
  EXPECT_EQ(executor.findLaunch(id)->status, LaunchRecord::Status::Running);
  // The printed command, in batch mode, as a user pastes it into a shell.
  std::string out = testing::TempDir() + "studio-gdb-" + pid + ".out";
  std::string command = d.gdbCommand +
                        " -nx -batch -ex bt -ex 'info args' -ex 'print *x.aligned@4' 2>&1";
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out),
                                                std::nullopt};
  std::string message;
  EXPECT_EQ(llvm::sys::ExecuteAndWait("/bin/sh", {"/bin/sh", "-c", command}, std::nullopt,
                                      redirects, /*SecondsToWait=*/120, 0, &message),
            0)
      << message;
  std::string gdb = executor_test::readFile(out);
  // The kernel's argument by its .mlir name, as executor-compile -g names it.
  EXPECT_NE(gdb.find("hit Breakpoint 1"), std::string::npos) << gdb;
  EXPECT_NE(gdb.find("#0  square (x=...) at cross-compile-dispatch.mlir:"),
            std::string::npos)
      << gdb;
  EXPECT_NE(gdb.find("$1 = {1, 2, 3, 4}"), std::string::npos) << gdb;
  // gdb detached: the kernel ran, the launch is done with its results.
  ASSERT_TRUE(executor.waitIdle(60s));
  const LaunchRecord *r = executor.findLaunch(id);
  ASSERT_EQ(r->status, LaunchRecord::Status::Done) << r->error;
  EXPECT_TRUE(r->debug);
  EXPECT_EQ(doubles(r->results[0]), (std::vector<double>{1, 4, 9, 16}));
  EXPECT_EQ(executor.debugLaunch().phase, DebugLaunch::Phase::Finished);
  bool attached = false;
  for (const LogEntry &e : executor.log())
    attached |= e.text.find("a debugger is attached") != std::string::npos;
  EXPECT_TRUE(attached);
  EXPECT_TRUE(executor.canLaunchUnderDebugger());
  // The panel's own session is untouched: never connected.
  EXPECT_EQ(executor.state(), ExecutorState::Disconnected);
}

TEST(Studio, ACrashingKernelShowsAnErrorAndTheSessionReopens) {
  Studio studio(options());
  ASSERT_TRUE(studio.open(CRASH_INPUT));
  ASSERT_TRUE(studio.waitForRecording(60s));
  ASSERT_TRUE(studio.passes().recording().succeeded) << studio.status();
  ASSERT_EQ(studio.kernels().size(), 2u);
  studio.executor().startLocal();
  ASSERT_TRUE(studio.executor().waitIdle(20s));
  const LaunchRecord &crash = launchAndWait(studio, "crash");
  EXPECT_EQ(crash.status, LaunchRecord::Status::Failed);
  EXPECT_EQ(studio.executor().state(), ExecutorState::Error);
  EXPECT_NE(studio.executor().error().find("lost the session"), std::string::npos);
  studio.executor().startLocal(); // the executor still runs: a new session
  ASSERT_TRUE(studio.executor().waitIdle(20s));
  ASSERT_EQ(studio.executor().state(), ExecutorState::Connected)
      << studio.executor().error();
  const LaunchRecord &twice = launchAndWait(studio, "twice");
  ASSERT_EQ(twice.status, LaunchRecord::Status::Done) << twice.error;
  EXPECT_EQ(doubles(twice.results[0]), (std::vector<double>{2, 4, 6, 8}));
}

TEST(Studio, LocationsArePrintedOnRequestAndTheDiffHidesThem) {
  Studio studio(options());
  studio.setPipelineText("builtin.module(cse)");
  studio.setPrintLocations(true);
  studio.openText("loc.mlir", "func.func @f(%a: i32) -> i32 {\n"
                              "  %b = arith.addi %a, %a : i32\n"
                              "  %c = arith.addi %a, %a : i32\n"
                              "  %d = arith.muli %b, %c : i32\n"
                              "  return %d : i32\n}\n");
  ASSERT_TRUE(studio.waitForRecording(60s));
  PipelineModel &passes = studio.passes();
  ASSERT_EQ(passes.passCount(), 1u);
  EXPECT_NE(passes.irAt(0)->find("loc("), std::string::npos) << *passes.irAt(0);
  auto anyLoc = [&] {
    for (size_t i = 0; i < passes.rowCount(); ++i) {
      const DiffRow &r = passes.row(i);
      if (passes.leftText(r).find("loc(") != std::string_view::npos ||
          passes.rightText(r).find("loc(") != std::string_view::npos)
        return true;
    }
    return false;
  };
  EXPECT_TRUE(anyLoc());
  LineOptions hide;
  hide.hideLocations = true;
  passes.setLineOptions(hide);
  EXPECT_FALSE(anyLoc());
  EXPECT_FALSE(passes.diffView().diff.identical()); // cse still changed it
}

TEST(Studio, LaunchesKernelsWithScalarArgumentsAndResults) {
  // A local target's @scale(f64, memref) and a kernel returning an f64.
  std::string text = R"mlir(
module @host {
  func.func @main(%x: memref<4xf64>) -> (memref<4xf64>, f64) {
    %two = arith.constant 2.0 : f64
    %y = catalyst.launch_kernel @local::@scale(%two, %x) : (f64, memref<4xf64>) -> memref<4xf64>
    %s = catalyst.launch_kernel @local::@total(%y, %two) : (memref<4xf64>, f64) -> f64
    return %y, %s : memref<4xf64>, f64
  }
  module @local attributes {catalyst.target = {}} {
)mlir" +
                     executor_test::mapKernel("scale", "arith.mulf", "%a", "%a: f64, ") +
                     R"mlir(    func.func @total(%x: memref<4xf64>, %bias: f64) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %t = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %bias) -> (f64) {
        %v = memref.load %x[%i] : memref<4xf64>
        %n = arith.addf %acc, %v : f64
        scf.yield %n : f64
      }
      return %t : f64
    }
  }
}
)mlir";
  Studio studio(options());
  studio.openText("scalars.mlir", text);
  ASSERT_TRUE(studio.waitForRecording(120s));
  ASSERT_TRUE(studio.passes().recording().succeeded) << studio.status();
  ASSERT_EQ(studio.kernels().size(), 2u);
  for (const Kernel &k : studio.kernels())
    EXPECT_TRUE(k.launchable) << k.qualifiedName() << ": " << k.why;
  studio.executor().startLocal();
  ASSERT_TRUE(studio.executor().waitIdle(20s));
  ASSERT_EQ(studio.executor().state(), ExecutorState::Connected)
      << studio.executor().error();
  std::string error;
  ASSERT_TRUE(studio.setInputsFromJson(0, "[3, [1, 2, 3, 4]]", error)) << error;
  const LaunchRecord &scaled = launchAndWait(studio, "scale");
  ASSERT_EQ(scaled.status, LaunchRecord::Status::Done) << scaled.error;
  EXPECT_EQ(doubles(scaled.results[0]), (std::vector<double>{3, 6, 9, 12}));
  ASSERT_TRUE(studio.setInputsFromJson(1, "[[1, 2, 3, 4], 0.5]", error)) << error;
  const LaunchRecord &total = launchAndWait(studio, "total", /*async=*/true);
  ASSERT_EQ(total.status, LaunchRecord::Status::Done) << total.error;
  ASSERT_EQ(total.results.size(), 1u);
  EXPECT_TRUE(total.results[0].sizes.empty());
  EXPECT_EQ(doubles(total.results[0]), std::vector<double>{10.5});
  EXPECT_EQ(formatValues(total.results[0], total.resultTypes[0].element), "10.5");
  // Launched many times, the executor's memory is given back each time.
  for (int i = 0; i < 20; ++i)
    ASSERT_EQ(launchAndWait(studio, "scale").status, LaunchRecord::Status::Done);
}

TEST(Studio, EachSourceLineIsLinkedToTheKernelsLlvmIrAndAssembly) {
  // Recorded with locations (the studio's "print loc"): the kernel's LLVM
  // IR and assembly carry its line table (!dbg, .loc).
  Studio studio(options());
  studio.setPrintLocations(true);
  ASSERT_TRUE(studio.open(ARM_INPUT));
  ASSERT_TRUE(studio.waitForRecording(120s));
  PipelineModel &passes = studio.passes();
  ASSERT_TRUE(passes.recording().succeeded) << studio.status();
  std::string file = studio.document().name();
  // Line 16 of the file is the kernel's arith.addf, line 15 its load.
  for (const char *step : {"arm/llvm", "arm/llvm-opt", "arm/asm"}) {
    std::optional<int> position = passes.positionNamed(step);
    ASSERT_TRUE(position) << step;
    SnapshotKind kind = passes.kindAt(*position);
    std::shared_ptr<const std::string> text = passes.irAt(*position);
    ASSERT_TRUE(text) << step;
    SourceLineMap map = mapSourceLines(*text, kind, file);
    TextLines lines = TextLines::prepare(*text);
    llvm::ArrayRef<unsigned> addf = map.stepLines(16);
    ASSERT_FALSE(addf.empty()) << step;
    bool fadd = false;
    for (unsigned line : addf) {
      EXPECT_EQ(map.sourceLinesOf[line], std::vector<unsigned>{16}) << step << ": " << line;
      fadd |= lines.line(line).find("fadd") != std::string_view::npos;
    }
    EXPECT_TRUE(fadd) << step << ": the addf became an fadd";
    EXPECT_FALSE(map.stepLines(15).empty()) << step << ": the load";
    // Both ways: every step line of a source line names it.
    for (size_t r = 0; r < map.sourceLines.size(); ++r)
      for (unsigned line : map.stepLinesOf[r])
        EXPECT_TRUE(llvm::is_contained(map.sourceLinesOf[line], map.sourceLines[r]));
    // A comment line of the file became nothing.
    EXPECT_TRUE(map.stepLines(1).empty()) << step;
    EXPECT_EQ(map.rank(1), -1);
  }
  // The host's own MLIR too, by loc(...): the launch of line 5.
  std::shared_ptr<const std::string> input = passes.irAt(kInputPosition);
  SourceLineMap host = mapSourceLines(*input, SnapshotKind::MLIR, file);
  EXPECT_FALSE(host.stepLines(5).empty());
}

// Issue 39: the texts of a recording stay in the worker's texts file (kept
// open) until a view shows them: the shown step and the one before it, for
// the diff. Each is byte for byte what reading the worker's result with
// every text in memory gives.
TEST(Studio, ARecordingsTextsAreReadWhenAStepIsShown) {
  const std::string program = "func.func @f(%a: i32) -> i32 {\n"
                              "  %one = arith.constant 1 : i32\n"
                              "  %b = arith.addi %a, %a : i32\n"
                              "  %c = arith.addi %a, %a : i32\n"
                              "  %d = arith.muli %b, %c : i32\n"
                              "  %e = arith.muli %d, %one : i32\n"
                              "  return %e : i32\n}\n"
                              "func.func private @unused() {\n  return\n}\n";
  const std::string pipeline = "builtin.module(canonicalize,cse,symbol-dce,canonicalize)";
  Studio studio(options());
  studio.setPipelineText(pipeline);
  studio.openText("lazy.mlir", program);
  ASSERT_TRUE(studio.waitForRecording(60s));
  PipelineModel &passes = studio.passes();
  const Recording &lazy = passes.recording();
  ASSERT_TRUE(lazy.succeeded) << studio.status();
  ASSERT_EQ(passes.passCount(), 4u);
  EXPECT_GT(lazy.keptTextBytes, 0u);
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(lazy.snapshots[i].changed) << i;
  EXPECT_TRUE(lazy.snapshots[3].ir.sameAs(lazy.snapshots[2].ir));
  // It opens at the first step that changed: that one and the input are
  // read (the worker thread diffed them), nothing else.
  ASSERT_EQ(passes.selected(), 0);
  passes.diffView();
  EXPECT_TRUE(lazy.inputIR.isMade());
  EXPECT_TRUE(lazy.snapshots[0].ir.isMade());
  EXPECT_FALSE(lazy.snapshots[1].ir.isMade());
  EXPECT_FALSE(lazy.snapshots[2].ir.isMade());
  EXPECT_FALSE(lazy.outputIR.isMade());
  // Showing step 3 (symbol-dce) reads it and the one before it, only.
  passes.select(2);
  passes.diffView();
  EXPECT_TRUE(lazy.snapshots[1].ir.isMade());
  EXPECT_TRUE(lazy.snapshots[2].ir.isMade());
  EXPECT_FALSE(passes.diffView().diff.identical());

  // The eager path: the same request in the worker, its result read with
  // every text in memory.
  executor_test::Workspace ws("lazy-texts");
  RecordRequest request;
  request.text = program;
  request.bufferName = "lazy.mlir";
  request.options.pipeline = pipeline;
  request.options.recordNested = true;
  request.options.deferText = false;
  std::string requestPath = ws.path.str().str() + "/request.json";
  std::string resultPath = ws.path.str().str() + "/result";
  {
    std::ofstream os(requestPath);
    std::string json;
    llvm::raw_string_ostream(json) << toJSON(request);
    os << json;
  }
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  std::string error;
  ASSERT_EQ(llvm::sys::ExecuteAndWait(self, {self, "--record-worker", requestPath, resultPath},
                                      std::nullopt, {}, /*SecondsToWait=*/60, 0, &error),
            0)
      << error;
  auto result = llvm::MemoryBuffer::getFile(resultPath);
  auto texts = llvm::MemoryBuffer::getFile(getWorkerTextsPath(resultPath));
  ASSERT_TRUE(result && texts);
  llvm::Expected<Recording> read =
      readRecording((*result)->getBuffer(), (*texts)->getBuffer());
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  Recording &eager = *read;
  ASSERT_EQ(eager.snapshots.size(), lazy.snapshots.size());
  EXPECT_EQ(*eager.inputIR, *lazy.inputIR);
  for (size_t i = 0; i < eager.snapshots.size(); ++i)
    EXPECT_EQ(*eager.snapshots[i].ir, *lazy.snapshots[i].ir) << i;
  EXPECT_EQ(*eager.outputIR, *lazy.outputIR);
}
