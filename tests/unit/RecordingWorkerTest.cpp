//===- RecordingWorkerTest.cpp - recordings made in a worker process ------===//
//
// This test program is its own recording worker (RecordWorkerTestMain.cpp):
// recordInWorker starts it with --record-worker.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Transforms/Passes.h"

#include "TargetPrograms.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "CrashingWorker.h"

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

/// The binary form of `recording`: its structure, then its texts.
std::pair<std::string, std::string> written(const Recording &recording) {
  std::string bytes, texts;
  llvm::raw_string_ostream out(bytes), textsOut(texts);
  writeRecording(recording, std::nullopt, out, textsOut);
  return {bytes, texts};
}

/// `recording` through its binary form, as the worker sends it.
Recording roundTrip(const Recording &recording) {
  auto [bytes, texts] = written(recording);
  llvm::Expected<Recording> back = readRecording(bytes, texts);
  EXPECT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  return back ? std::move(*back) : Recording();
}
} // namespace

TEST(RecordingWorker, TheTripKeepsNestedStepsTextsAndSharing) {
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
  // Each text is written once: the texts are no larger than the distinct
  // texts of the recording.
  auto [bytes, texts] = written(recording);
  size_t distinct = recording.inputIR->size();
  IRText before = recording.inputIR;
  for (const Snapshot &s : recording.snapshots) {
    if (!s.ir.sameAs(before))
      distinct += s.ir->size();
    before = s.ir;
    for (size_t i = 0; i < s.nested.size(); ++i)
      if (s.nested[i].ir &&
          !(i > 0 && s.nested[i - 1].target == s.nested[i].target &&
            s.nested[i].ir.sameAs(s.nested[i - 1].ir)))
        distinct += s.nested[i].ir->size();
  }
  EXPECT_EQ(texts.size(), distinct);
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

namespace {
/// Why readRecording refuses `bytes` (with `texts`); empty when it reads.
std::string refusal(llvm::StringRef bytes, llvm::StringRef texts) {
  llvm::Expected<Recording> read = readRecording(bytes, texts);
  return read ? "" : llvm::toString(read.takeError());
}
} // namespace

TEST(RecordingWorker, InvalidRecordingsAreRejectedWithThePlace) {
  Recording recording;
  recording.succeeded = true;
  Snapshot &step = recording.snapshots.emplace_back();
  step.pass = step.options = "cse";
  step.ir = IRText(std::make_shared<const std::string>("module {\n}\n"));
  Snapshot &nested = step.nested.emplace_back();
  nested.target = "k";
  nested.ir = step.ir;
  auto [bytes, texts] = written(recording);
  ASSERT_EQ(refusal(bytes, texts), "");
  Recording back = roundTrip(recording);
  ASSERT_EQ(back.snapshots.size(), 1u);
  EXPECT_EQ(back.snapshots[0].ir.size(), 11u);
  EXPECT_EQ(back.snapshots[0].ir.lines(), 2u);

  // Every prefix is refused, naming the byte; never a crash.
  for (size_t size = 0; size < bytes.size(); ++size) {
    std::string why = refusal(llvm::StringRef(bytes).take_front(size), texts);
    EXPECT_NE(why.find("invalid recording at byte"), std::string::npos)
        << size << ": " << why;
  }
  EXPECT_NE(refusal(bytes + "x", texts).find("1 bytes after the recording"),
            std::string::npos);
  std::string otherVersion = bytes;
  otherVersion[26] = '9';
  EXPECT_NE(refusal(otherVersion, texts).find("not a recording of this version"),
            std::string::npos);

  // A count larger than what is left: refused before anything is reserved.
  Recording empty;
  auto [emptyBytes, emptyTexts] = written(empty);
  // The snapshots' count is the last byte but the output's tag.
  std::string huge = emptyBytes;
  size_t countAt = huge.size() - 2;
  ASSERT_EQ(huge[countAt], 0);
  huge.replace(countAt, 1, "\xff\xff\xff\xff\x0f");
  std::string why = refusal(huge, "");
  EXPECT_NE(why.find("the number of snapshots is out of range"), std::string::npos)
      << why;
  EXPECT_NE(why.find("at byte"), std::string::npos) << why;
}

TEST(RecordingWorker, TextsAreCheckedAgainstTheirSize) {
  Recording recording;
  recording.inputIR = IRText(std::make_shared<const std::string>("234"));
  std::string bytes = written(recording).first;
  // The input's text is placed at 0, 3 bytes, 0 lines: move it to 2.
  std::string placed = std::string("\x02\x00\x03\x00", 4);
  size_t at = bytes.find(placed);
  ASSERT_NE(at, std::string::npos);
  auto with = [&](std::string place) {
    std::string changed = bytes;
    changed.replace(at, placed.size(), place);
    return changed;
  };
  llvm::Expected<Recording> fits =
      readRecording(with(std::string("\x02\x02\x03\x00", 4)), "01234");
  ASSERT_TRUE(static_cast<bool>(fits)) << llvm::toString(fits.takeError());
  EXPECT_EQ(*fits->inputIR, "234");
  for (auto [place, why] :
       {std::make_pair(std::string("\x02\x03\x03\x00", 4), "past the end of the texts"),
        std::make_pair(std::string("\x02\x06\x00\x00", 4), "a text's place"),
        std::make_pair(std::string("\x02\x01\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x00", 12),
                       "past the end of the texts"),
        std::make_pair(std::string("\x02\x00\x02\x03", 4), "a text's lines"),
        std::make_pair(std::string("\x01", 1), "shared with the one before"),
        std::make_pair(std::string("\x07", 1), "a text's kind")}) {
    std::string refused = refusal(with(place), "01234");
    EXPECT_NE(refused.find(why), std::string::npos) << refused;
  }
  // A text, but no texts sent.
  EXPECT_NE(refusal(bytes, "").find("past the end of the texts"),
            std::string::npos);
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
  ASSERT_EQ(run.recording->snapshots.size(), 2u);
  EXPECT_TRUE(run.recording->snapshots[0].changed);
  EXPECT_FALSE(run.recording->snapshots[1].changed);
  EXPECT_EQ(*run.recording->snapshots[0].ir, *here.snapshots[0].ir);
  EXPECT_TRUE(run.recording->snapshots[1].ir.sameAs(run.recording->snapshots[0].ir));

  // Only the snapshots asked for come back with their text.
  request.irSnapshots = std::vector<int>{0};
  request.options.deferText = true;
  WorkerRecording some = recordInWorker(request, self(), 60s);
  ASSERT_EQ(some.status, WorkerRecording::Status::Finished) << some.error;
  EXPECT_FALSE(some.recording->inputIR);
  ASSERT_TRUE(some.recording->snapshots[0].ir);
  EXPECT_EQ(*some.recording->snapshots[0].ir, *here.snapshots[0].ir);
  EXPECT_FALSE(some.recording->snapshots[1].ir);

  // A re-run of the steps after the first.
  request.irSnapshots.reset();
  request.rerunAfter = 0;
  request.text = *here.snapshots[0].ir;
  WorkerRecording rest = recordInWorker(request, self(), 60s);
  ASSERT_EQ(rest.status, WorkerRecording::Status::Finished) << rest.error;
  EXPECT_EQ(rest.recording->firstStep, 1u);
  ASSERT_EQ(rest.recording->snapshots.size(), 1u);
  EXPECT_EQ(rest.recording->snapshots[0].pass, "cse");
}

// A debug build's recording (the studio's) names the kernels' debug
// variables as executor-compile -g does: `x`, as the .mlir writes it, with
// keepArgumentNames (through the worker's request); `arg0` without.
TEST(RecordingWorker, ADebugRecordingNamesTheKernelsArgumentsAsTheSourceDoes) {
  Workspace ws("worker-names");
  RecordRequest request;
  request.text = sample("cross-compile-dispatch.mlir");
  request.bufferName = "dispatch.mlir";
  request.options.pipeline = "builtin.module(cross-compile-targets{workspace=" +
                             ws.path.str().str() + " debug=true})";
  request.options.recordNested = true;
  request.options.deferText = false;
  for (bool keep : {true, false}) {
    request.options.keepArgumentNames = keep;
    WorkerRecording run = recordInWorker(request, self(), 120s);
    ASSERT_EQ(run.status, WorkerRecording::Status::Finished) << run.error;
    ASSERT_TRUE(run.recording->succeeded);
    const Snapshot *llvmIR = findSnapshot(*run.recording, "compute/llvm");
    ASSERT_TRUE(llvmIR && llvmIR->ir);
    const std::string &text = *llvmIR->ir;
    EXPECT_EQ(text.find("DILocalVariable(name: \"x\", arg: 1") != std::string::npos, keep)
        << text.substr(text.find("DILocalVariable"), 200);
    EXPECT_EQ(text.find("DILocalVariable(name: \"arg0\", arg: 1") != std::string::npos, !keep);
  }
}

TEST(RecordingWorker, ACrashTimeOutOrCancellationEndsTheWorker) {
  RecordRequest request;
  request.text = "module {}";
  request.bufferName = "m.mlir";
  request.options.pipeline = "builtin.module(cse)";
  WorkerRecording crashed = [&] {
    executor_test::CrashingWorker crashing;
    return recordInWorker(request, self(), 60s);
  }();
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
  llvm::Expected<AlignedSnapshots> crashed = [&] {
    executor_test::CrashingWorker crashing;
    return alignInWorker(left, right, self(), 60s);
  }();
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

namespace {
/// A host launching `n` local targets, each an 8-element f64 loop kernel
/// scaling by its own constant; `edit` gives one of them another.
std::string targetsProgram(int n, int edit = -1) {
  std::string text = "module @host {\n  func.func @main(%x: memref<8xf64>) {\n";
  for (int i = 0; i < n; ++i)
    text += "    %r" + std::to_string(i) + " = catalyst.launch_kernel @k" +
            std::to_string(i) + "::@kernel_" + std::to_string(i) +
            "(%x) : (memref<8xf64>) -> memref<8xf64>\n";
  text += "    return\n  }\n";
  for (int i = 0; i < n; ++i) {
    std::string k = std::to_string(i);
    std::string scale = std::to_string(i + (i == edit ? 10 : 1)) + ".0";
    text += "  module @k" + k + " attributes {catalyst.target = {}} {\n"
            "    func.func @kernel_" + k + "(%x: memref<8xf64>) -> memref<8xf64> {\n"
            "      %c0 = arith.constant 0 : index\n"
            "      %c1 = arith.constant 1 : index\n"
            "      %c8 = arith.constant 8 : index\n"
            "      %s = arith.constant " + scale + " : f64\n"
            "      %y = memref.alloc() : memref<8xf64>\n"
            "      scf.for %i = %c0 to %c8 step %c1 {\n"
            "        %v = memref.load %x[%i] : memref<8xf64>\n"
            "        %w = arith.mulf %v, %s : f64\n"
            "        memref.store %w, %y[%i] : memref<8xf64>\n"
            "      }\n"
            "      return %y : memref<8xf64>\n    }\n  }\n";
  }
  return text + "}\n";
}

/// The recording as the worker sends it, its times left out (two fresh
/// recordings differ in them alone).
std::string withoutTimes(Recording recording) {
  recording.totalMilliseconds = 0;
  for (Snapshot &snapshot : recording.snapshots) {
    snapshot.milliseconds = 0;
    for (Snapshot &nested : snapshot.nested)
      nested.milliseconds = 0;
  }
  auto [bytes, texts] = written(recording);
  return bytes + texts;
}

/// The recording as the worker sends it: its structure and its texts.
std::string sent(const Recording &recording) {
  auto [bytes, texts] = written(recording);
  return bytes + texts;
}

std::string objectsOf(llvm::StringRef workspace, int n) {
  std::string all;
  for (int i = 0; i < n; ++i) {
    std::string k = "k" + std::to_string(i);
    auto buffer = llvm::MemoryBuffer::getFile(
        (workspace + "/" + k + "/" + k + ".o").str(), /*IsText=*/false);
    EXPECT_TRUE(static_cast<bool>(buffer)) << k;
    if (buffer)
      all += (*buffer)->getBuffer().str() + "\n--\n";
  }
  return all;
}
} // namespace

// Issue 39: an unchanged document answers from the cache, byte for byte as
// the worker sent it, without a worker.
TEST(RecordingCache, AnUnchangedRequestAnswersFromTheCache) {
  Workspace workspace("recording-cache");
  // The workers' targets on disk: in a cache of this test's own.
  Workspace cacheDir("recording-cache-targets");
  ::setenv("EXECUTOR_STUDIO_CACHE_DIR", cacheDir.path.c_str(), 1);
  RecordRequest request;
  request.text = targetsProgram(3);
  request.bufferName = "targets.mlir";
  request.options.pipeline = workspace.crossCompilePipeline(",cse");
  request.options.deferText = false;
  request.options.recordNested = true;
  RecordingCacheStatistics before = getRecordingCacheStatistics();
  WorkerRecording first = recordInWorker(request, self(), 60s);
  ASSERT_EQ(first.status, WorkerRecording::Status::Finished) << first.error;
  WorkerRecording again = recordInWorker(request, self(), 60s);
  ASSERT_EQ(again.status, WorkerRecording::Status::Finished) << again.error;
  RecordingCacheStatistics after = getRecordingCacheStatistics();
  EXPECT_EQ(after.misses, before.misses + 1);
  EXPECT_EQ(after.hits, before.hits + 1);
  EXPECT_EQ(sent(*again.recording), sent(*first.recording));
  expectSameSnapshots(again.recording->snapshots, first.recording->snapshots);
  EXPECT_EQ(again.recording, first.recording)
      << "a hit shares the recording the cache keeps: no copy";

  // Another program is recorded anew; so is the same one for another worker.
  request.text = targetsProgram(3, /*edit=*/1);
  WorkerRecording edited = recordInWorker(request, self(), 60s);
  ASSERT_EQ(edited.status, WorkerRecording::Status::Finished) << edited.error;
  EXPECT_EQ(getRecordingCacheStatistics().misses, after.misses + 1);
  EXPECT_NE(sent(*edited.recording), sent(*first.recording));
  // A worker again: its targets come from the cache on disk, and the
  // recording is the same, times aside.
  WorkerRecording uncached = recordInWorkerUncached(request, self(), 60s);
  ASSERT_EQ(uncached.status, WorkerRecording::Status::Finished) << uncached.error;
  EXPECT_EQ(withoutTimes(*uncached.recording), withoutTimes(*edited.recording));

  // Issue 39, item 3: the recordings the cache keeps are found by their id
  // (the language server's executor/stepText), the same texts; one the
  // cache dropped is not found.
  ASSERT_FALSE(first.cacheId.empty());
  EXPECT_EQ(again.cacheId, first.cacheId);
  EXPECT_NE(edited.cacheId, first.cacheId);
  EXPECT_TRUE(uncached.cacheId.empty()) << "not kept: not in the cache";
  std::shared_ptr<const Recording> kept = lookupCachedRecording(first.cacheId);
  ASSERT_TRUE(kept);
  EXPECT_EQ(sent(*kept), sent(*first.recording));
  EXPECT_FALSE(lookupCachedRecording("00000000deadbeef"));
  RecordingCacheStatistics limits = getRecordingCacheStatistics();
  setRecordingCacheLimit(0);
  EXPECT_FALSE(lookupCachedRecording(first.cacheId));
  setRecordingCacheLimit(limits.limit);
  ::unsetenv("EXECUTOR_STUDIO_CACHE_DIR");
}

// Issue 39: cross-compile-targets takes a target compiled before from its
// cache (an edit in one kernel compiles that kernel's target alone), and
// what it answers is what compiling it again gives: the same recording,
// times aside, and the same objects, byte for byte.
TEST(RecordingCache, TargetsCompiledBeforeComeFromTheCacheByteForByte) {
  Workspace workspace("target-cache");
  catalyst::setTargetDiskCacheDirectory(""); // this process's cache alone
  RecordOptions options;
  options.pipeline = workspace.crossCompilePipeline(",cse");
  options.deferText = false;
  options.recordNested = true;
  options.printDebugInfo = true; // with the line tables too
  const int n = 4;
  catalyst::TargetCacheStatistics start = catalyst::getTargetCacheStatistics();
  Recording first = recordPipeline(targetsProgram(n), "targets.mlir", options);
  ASSERT_TRUE(first.succeeded);
  std::string firstObjects = objectsOf(workspace.path, n);
  catalyst::TargetCacheStatistics one = catalyst::getTargetCacheStatistics();
  EXPECT_EQ(one.misses, start.misses + n);

  Recording cached = recordPipeline(targetsProgram(n), "targets.mlir", options);
  ASSERT_TRUE(cached.succeeded);
  catalyst::TargetCacheStatistics two = catalyst::getTargetCacheStatistics();
  EXPECT_EQ(two.hits, one.hits + n);
  EXPECT_EQ(two.misses, one.misses);
  EXPECT_EQ(withoutTimes(cached), withoutTimes(first));
  expectSameSnapshots(cached.snapshots[0].nested, first.snapshots[0].nested);
  EXPECT_EQ(objectsOf(workspace.path, n), firstObjects);

  // One kernel edited: its target alone is compiled.
  Recording edited = recordPipeline(targetsProgram(n, 2), "targets.mlir", options);
  ASSERT_TRUE(edited.succeeded);
  std::string editedObjects = objectsOf(workspace.path, n);
  catalyst::TargetCacheStatistics three = catalyst::getTargetCacheStatistics();
  EXPECT_EQ(three.hits, two.hits + n - 1);
  EXPECT_EQ(three.misses, two.misses + 1);
  EXPECT_NE(editedObjects, firstObjects);

  // Fresh, without the cache: the same, byte for byte.
  RecordOptions fresh = options;
  fresh.pipeline = "builtin.module(cross-compile-targets{cache=false workspace=" +
                   workspace.path.str().str() + "},cse)";
  Recording uncached = recordPipeline(targetsProgram(n, 2), "targets.mlir", fresh);
  ASSERT_TRUE(uncached.succeeded);
  EXPECT_EQ(catalyst::getTargetCacheStatistics().misses, three.misses);
  EXPECT_EQ(objectsOf(workspace.path, n), editedObjects);
  // (The pass's options show cache=false: compare the steps after it.)
  ASSERT_EQ(uncached.snapshots.size(), edited.snapshots.size());
  expectSameSnapshots(
      [&] {
        auto steps = uncached.snapshots[0].nested;
        for (auto &s : steps)
          s.milliseconds = 0;
        return steps;
      }(),
      [&] {
        auto steps = edited.snapshots[0].nested;
        for (auto &s : steps)
          s.milliseconds = 0;
        return steps;
      }());
  EXPECT_EQ(*uncached.snapshots[1].ir, *edited.snapshots[1].ir);
}
