//===- RecordingWorkerTest.cpp - recordings made in a worker process ------===//
//
// This test program is its own recording worker (RecordWorkerTestMain.cpp):
// recordInWorker starts it with --record-worker.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"

#include "TargetPrograms.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace executor_studio;
using namespace std::chrono_literals;

namespace {
std::string self() { return llvm::sys::fs::getMainExecutable(nullptr, nullptr); }

std::string sample(const char *name) {
  auto buffer = llvm::MemoryBuffer::getFile(std::string(SAMPLES_DIR) + "/" + name);
  EXPECT_TRUE(static_cast<bool>(buffer)) << name;
  return buffer ? (*buffer)->getBuffer().str() : "";
}

using executor_test::Workspace;

/// Every field of `a` and `b` (texts compared as text), recursively.
void expectSameSnapshots(const std::vector<Snapshot> &a, const std::vector<Snapshot> &b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(a[i].pass);
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].pass, b[i].pass);
    EXPECT_EQ(a[i].options, b[i].options);
    EXPECT_EQ(a[i].anchor, b[i].anchor);
    EXPECT_EQ(a[i].changed, b[i].changed);
    EXPECT_EQ(a[i].failed, b[i].failed);
    EXPECT_EQ(a[i].kind, b[i].kind);
    EXPECT_EQ(a[i].target, b[i].target);
    EXPECT_EQ(a[i].milliseconds, b[i].milliseconds);
    EXPECT_EQ(static_cast<bool>(a[i].ir), static_cast<bool>(b[i].ir));
    if (a[i].ir && b[i].ir)
      EXPECT_EQ(*a[i].ir, *b[i].ir);
    if (i > 0 && a[i].target == a[i - 1].target)
      EXPECT_EQ(a[i].ir.sameAs(a[i - 1].ir), b[i].ir.sameAs(b[i - 1].ir));
    ASSERT_EQ(a[i].diagnostics.size(), b[i].diagnostics.size());
    for (size_t d = 0; d < a[i].diagnostics.size(); ++d) {
      EXPECT_EQ(a[i].diagnostics[d].message, b[i].diagnostics[d].message);
      EXPECT_EQ(a[i].diagnostics[d].line, b[i].diagnostics[d].line);
      EXPECT_EQ(a[i].diagnostics[d].pass, b[i].diagnostics[d].pass);
      EXPECT_EQ(a[i].diagnostics[d].severity, b[i].diagnostics[d].severity);
    }
    expectSameSnapshots(a[i].nested, b[i].nested);
  }
}

Recording roundTrip(const Recording &recording) {
  std::string text;
  llvm::raw_string_ostream(text) << toJSON(recording);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  EXPECT_TRUE(static_cast<bool>(parsed));
  Recording back;
  llvm::json::Path::Root root;
  EXPECT_TRUE(parsed && fromJSON(*parsed, back, root)) << llvm::toString(root.getError());
  return back;
}
} // namespace

TEST(RecordingWorker, JsonRoundTripKeepsNestedStepsTextsAndSharing) {
  Workspace ws("worker");
  RecordOptions options;
  options.pipeline = "builtin.module(executor-default-pipeline{workspace=" +
                     ws.path.str().str() + "})";
  options.recordNested = true;
  Recording recording =
      recordPipeline(sample("cross-compile-dispatch.mlir"), "dispatch.mlir", options);
  ASSERT_TRUE(recording.succeeded);
  Recording back = roundTrip(recording);
  EXPECT_EQ(back.succeeded, recording.succeeded);
  EXPECT_EQ(back.totalMilliseconds, recording.totalMilliseconds);
  ASSERT_TRUE(back.inputIR);
  EXPECT_EQ(*back.inputIR, *recording.inputIR);
  ASSERT_TRUE(back.outputIR);
  EXPECT_EQ(*back.outputIR, *recording.outputIR);
  expectSameSnapshots(recording.snapshots, back.snapshots);
  // A step that changed nothing shares its predecessor's text after the
  // trip too.
  IRText previous = back.inputIR;
  unsigned shared = 0;
  for (const Snapshot &s : back.snapshots) {
    EXPECT_EQ(!s.changed, s.ir.sameAs(previous)) << s.pass;
    shared += s.ir.sameAs(previous);
    previous = s.ir;
  }
  EXPECT_GT(shared, 0u);
  // The targets' LLVM IR and assembly.
  const Snapshot *assembly = findSnapshot(back, "compute/asm");
  ASSERT_TRUE(assembly);
  EXPECT_EQ(assembly->kind, SnapshotKind::Assembly);
  EXPECT_NE(assembly->ir->find("square:"), std::string::npos);
}

TEST(RecordingWorker, DiagnosticsAndFailuresSurviveTheTrip) {
  RecordOptions options;
  options.pipeline = "builtin.module(no-such-pass)";
  Recording bad = recordPipeline("module {}", "x.mlir", options);
  ASSERT_FALSE(bad.diagnostics.empty());
  Recording back = roundTrip(bad);
  EXPECT_FALSE(back.succeeded);
  ASSERT_EQ(back.diagnostics.size(), bad.diagnostics.size());
  EXPECT_EQ(back.diagnostics[0].message, bad.diagnostics[0].message);

  Recording unparsed = recordPipeline("func.func @f( {", "y.mlir", RecordOptions());
  Recording unparsedBack = roundTrip(unparsed);
  EXPECT_FALSE(unparsedBack.inputIR);
  ASSERT_FALSE(unparsedBack.diagnostics.empty());
  EXPECT_EQ(unparsedBack.diagnostics[0].file, "y.mlir");
  EXPECT_EQ(unparsedBack.diagnostics[0].line, 1u);
  EXPECT_GT(unparsedBack.diagnostics[0].column, 0u);
}

TEST(RecordingWorker, InvalidRecordingsAreRejectedWithThePlace) {
  Recording recording;
  llvm::json::Path::Root root("recording");
  llvm::json::Value value = llvm::json::Object{
      {"succeeded", true}, {"totalMilliseconds", 1.0}, {"firstStep", 0},
      {"diagnostics", llvm::json::Array{}},
      {"snapshots", llvm::json::Array{llvm::json::Object{
                        {"index", -4}, {"pass", "cse"}, {"options", "cse"},
                        {"anchor", ""}, {"changed", true}, {"failed", false},
                        {"edited", false}, {"milliseconds", 1.0}, {"kind", "mlir"},
                        {"target", ""}, {"diagnostics", llvm::json::Array{}}}}}};
  EXPECT_FALSE(fromJSON(value, recording, root));
  EXPECT_NE(llvm::toString(root.getError()).find("out of range"), std::string::npos);
  llvm::json::Path::Root sharing("recording");
  value.getAsObject()->getArray("snapshots")->front().getAsObject()->insert(
      {"sameIR", true});
  (*value.getAsObject()->getArray("snapshots")->front().getAsObject())["index"] = 0;
  EXPECT_FALSE(fromJSON(value, recording, sharing));
  EXPECT_NE(llvm::toString(sharing.getError()).find("no text before it"), std::string::npos);
}

TEST(RecordingWorker, RecordsInAWorkerAsInThisProcess) {
  RecordRequest request;
  request.text = "func.func @f(%a: i32) -> i32 {\n  %c0 = arith.constant 0 : i32\n"
                 "  %b = arith.addi %a, %c0 : i32\n  return %b : i32\n}\n";
  request.bufferName = "f.mlir";
  request.options.pipeline = "builtin.module(canonicalize,cse)";
  WorkerRecording run = recordInWorker(request, self(), 60s);
  ASSERT_EQ(run.status, WorkerRecording::Status::Finished) << run.error;
  Recording here = recordPipeline(request.text, request.bufferName, request.options);
  ASSERT_EQ(run.recording.snapshots.size(), 2u);
  EXPECT_TRUE(run.recording.snapshots[0].changed);
  EXPECT_FALSE(run.recording.snapshots[1].changed);
  EXPECT_EQ(*run.recording.snapshots[0].ir, *here.snapshots[0].ir);
  EXPECT_TRUE(run.recording.snapshots[1].ir.sameAs(run.recording.snapshots[0].ir));

  // Only the snapshots asked for come back with their text.
  request.irSnapshots = std::vector<int>{0};
  request.options.deferText = true;
  WorkerRecording some = recordInWorker(request, self(), 60s);
  ASSERT_EQ(some.status, WorkerRecording::Status::Finished) << some.error;
  EXPECT_FALSE(some.recording.inputIR);
  ASSERT_TRUE(some.recording.snapshots[0].ir);
  EXPECT_EQ(*some.recording.snapshots[0].ir, *here.snapshots[0].ir);
  EXPECT_FALSE(some.recording.snapshots[1].ir);

  // A re-run of the steps after the first.
  request.irSnapshots.reset();
  request.rerunAfter = 0;
  request.text = *here.snapshots[0].ir;
  WorkerRecording rest = recordInWorker(request, self(), 60s);
  ASSERT_EQ(rest.status, WorkerRecording::Status::Finished) << rest.error;
  EXPECT_EQ(rest.recording.firstStep, 1u);
  ASSERT_EQ(rest.recording.snapshots.size(), 1u);
  EXPECT_EQ(rest.recording.snapshots[0].pass, "cse");
}

TEST(RecordingWorker, ACrashTimeOutOrCancellationEndsTheWorker) {
  RecordRequest request;
  request.text = "module {}";
  request.bufferName = "m.mlir";
  request.options.pipeline = "builtin.module(cse)";
  ::setenv("EXECUTOR_RECORD_WORKER_TEST_CRASH", "1", 1);
  WorkerRecording crashed = recordInWorker(request, self(), 60s);
  ::unsetenv("EXECUTOR_RECORD_WORKER_TEST_CRASH");
  EXPECT_EQ(crashed.status, WorkerRecording::Status::Failed);
  EXPECT_NE(crashed.error.find("killed by signal"), std::string::npos) << crashed.error;

  WorkerRecording cancelled = recordInWorker(request, self(), 60s, [] { return true; });
  EXPECT_EQ(cancelled.status, WorkerRecording::Status::Cancelled);

  WorkerRecording late = recordInWorker(request, self(), 0ms);
  EXPECT_EQ(late.status, WorkerRecording::Status::TimedOut);
  EXPECT_NE(late.error.find("timed out after 0 ms"), std::string::npos) << late.error;

  WorkerRecording missing = recordInWorker(request, "/no/such/worker", 60s);
  EXPECT_EQ(missing.status, WorkerRecording::Status::Failed);
  EXPECT_NE(missing.error.find("/no/such/worker"), std::string::npos) << missing.error;
}

TEST(RecordingWorker, AlignsTwoSnapshotsInAWorkerAsInThisProcess) {
  // dispatch-executor-targets' input and output: the same alignment as
  // alignSnapshots gives here, counts included.
  RecordRequest request;
  request.text = sample("cross-compile-dispatch.mlir");
  request.bufferName = "cross-compile-dispatch.mlir";
  Workspace workspace;
  request.options.pipeline =
      "builtin.module(cross-compile-targets{workspace=" + workspace.path.str().str() +
      "},dispatch-executor-targets)";
  Recording here = recordPipeline(request.text, request.bufferName, request.options);
  ASSERT_TRUE(here.succeeded);
  ASSERT_EQ(here.snapshots.size(), 2u);
  const std::string &left = *here.snapshots[0].ir, &right = *here.snapshots[1].ir;
  llvm::Expected<AlignedSnapshots> local = alignSnapshots(left, right);
  ASSERT_TRUE(static_cast<bool>(local)) << llvm::toString(local.takeError());
  llvm::Expected<AlignedSnapshots> remote = alignInWorker(left, right, self(), 60s);
  ASSERT_TRUE(static_cast<bool>(remote)) << llvm::toString(remote.takeError());
  EXPECT_EQ(remote->left, local->left);
  EXPECT_EQ(remote->right, local->right);
  EXPECT_EQ(remote->leftOps, local->leftOps);
  EXPECT_EQ(remote->rightOps, local->rightOps);
  EXPECT_EQ(remote->matchedOps, local->matchedOps);
  EXPECT_EQ(remote->renamed, local->renamed);
  EXPECT_GT(remote->matchedOps, 0u);

  // A text that does not parse: the parser's reason, as alignSnapshots says it.
  llvm::Expected<AlignedSnapshots> broken =
      alignInWorker(left, "func.func @f( {", self(), 60s);
  ASSERT_FALSE(static_cast<bool>(broken));
  std::string why = llvm::toString(broken.takeError());
  llvm::Expected<AlignedSnapshots> brokenHere = alignSnapshots(left, "func.func @f( {");
  ASSERT_FALSE(static_cast<bool>(brokenHere));
  EXPECT_EQ(why, llvm::toString(brokenHere.takeError()));

  // A worker that crashes, is cancelled or takes too long: an error, not a crash here.
  ::setenv("EXECUTOR_RECORD_WORKER_TEST_CRASH", "1", 1);
  llvm::Expected<AlignedSnapshots> crashed = alignInWorker(left, right, self(), 60s);
  ::unsetenv("EXECUTOR_RECORD_WORKER_TEST_CRASH");
  ASSERT_FALSE(static_cast<bool>(crashed));
  EXPECT_NE(llvm::toString(crashed.takeError()).find("killed by signal"), std::string::npos);
  llvm::Expected<AlignedSnapshots> cancelled =
      alignInWorker(left, right, self(), 60s, [] { return true; });
  ASSERT_FALSE(static_cast<bool>(cancelled));
  EXPECT_NE(llvm::toString(cancelled.takeError()).find("cancelled"), std::string::npos);
  llvm::Expected<AlignedSnapshots> late = alignInWorker(left, right, self(), 0ms);
  ASSERT_FALSE(static_cast<bool>(late));
  EXPECT_NE(llvm::toString(late.takeError()).find("timed out"), std::string::npos);
}
