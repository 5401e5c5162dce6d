//===- PipelineRecorderTest.cpp - the pipeline recorder -------------------===//
#include "Pipeline/PipelineRecorder.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <thread>

using namespace executor_studio;

namespace {
constexpr const char *kFolding = R"mlir(
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  %c = arith.addi %a, %c0 : i32
  %d = arith.muli %b, %c : i32
  return %d : i32
}
)mlir";

RecordOptions options(std::string pipeline) {
  RecordOptions o;
  o.pipeline = std::move(pipeline);
  return o;
}
} // namespace

TEST(PipelineRecorder, OneSnapshotPerPass) {
  Recording r = recordPipeline(kFolding, "test.mlir",
                               options("builtin.module(cse,canonicalize,cse)"));
  ASSERT_TRUE(r.succeeded);
  ASSERT_EQ(r.snapshots.size(), 3u);
  EXPECT_EQ(r.snapshots[0].pass, "cse");
  EXPECT_EQ(r.snapshots[1].pass, "canonicalize");
  EXPECT_EQ(r.snapshots[2].pass, "cse");
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(r.snapshots[i].index, i);
    EXPECT_GE(r.snapshots[i].milliseconds, 0.0);
    EXPECT_EQ(r.snapshots[i].anchor, "builtin.module");
  }
}

TEST(PipelineRecorder, TracksChangesAndSharesUnchangedIR) {
  Recording r = recordPipeline(kFolding, "test.mlir",
                               options("builtin.module(cse,canonicalize,cse)"));
  ASSERT_TRUE(r.succeeded);
  // cse merges %b and %c; canonicalize folds the add of zero; the second cse
  // finds nothing left to do.
  EXPECT_TRUE(r.snapshots[0].changed);
  EXPECT_TRUE(r.snapshots[1].changed);
  EXPECT_FALSE(r.snapshots[2].changed);
  EXPECT_EQ(r.snapshots[2].ir.get(), r.snapshots[1].ir.get());
  EXPECT_NE(r.snapshots[0].ir.get(), r.snapshots[1].ir.get());
  auto count = [](const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos;
         at = text.find(what, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count(*r.inputIR, "arith.addi"), 2u);
  EXPECT_EQ(count(*r.snapshots[0].ir, "arith.addi"), 1u);
  EXPECT_EQ(count(*r.snapshots[1].ir, "arith.addi"), 0u);
  EXPECT_EQ(r.outputIR.get(), r.snapshots.back().ir.get());
}

TEST(PipelineRecorder, AcceptsUnanchoredPipelinesAndOptions) {
  Recording r = recordPipeline(kFolding, "test.mlir",
                               options("canonicalize{max-iterations=3}"));
  ASSERT_TRUE(r.succeeded);
  ASSERT_EQ(r.snapshots.size(), 1u);
  EXPECT_NE(r.snapshots[0].options.find("max-iterations=3"), std::string::npos);
}

TEST(PipelineRecorder, ANestedPipelineIsOneStep) {
  constexpr const char *twoFunctions = R"mlir(
func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %a, %a : i32
  %d = arith.muli %b, %c : i32
  return %d : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
)mlir";
  Recording r = recordPipeline(
      twoFunctions, "test.mlir",
      options("builtin.module(func.func(cse,canonicalize),cse)"));
  ASSERT_TRUE(r.succeeded);
  // The nested pipeline ran on @f and @g: one snapshot, after both.
  ASSERT_EQ(r.snapshots.size(), 2u);
  EXPECT_EQ(r.snapshots[0].pass, "func.func(cse,canonicalize)");
  EXPECT_EQ(r.snapshots[0].anchor, "builtin.module");
  EXPECT_TRUE(r.snapshots[0].changed);
  EXPECT_EQ(r.snapshots[1].pass, "cse");
  EXPECT_FALSE(r.snapshots[1].changed);
}

TEST(PipelineRecorder, ParseErrorsComeBackAsDiagnostics) {
  Recording r = recordPipeline("func.func @f( {", "broken.mlir",
                               options("builtin.module(cse)"));
  EXPECT_FALSE(r.succeeded);
  EXPECT_TRUE(r.snapshots.empty());
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].file, "broken.mlir");
  EXPECT_EQ(r.diagnostics[0].line, 1u);
  EXPECT_EQ(r.diagnostics[0].severity, RecordedDiagnostic::Severity::Error);
}

// Text nested deeper than the parser's limit comes back as one located
// diagnostic (the studio records from text: 10,000 nested modules used to
// overflow the stack), and text just under it records normally.
TEST(PipelineRecorder, DeepNestingIsRefusedWhereItGetsTooDeep) {
  std::string deep;
  for (int i = 0; i < 10000; ++i)
    deep += "module {\n";
  for (int i = 0; i < 10000; ++i)
    deep += "}\n";
  Recording r = recordPipeline(deep, "deep.mlir", options("builtin.module(cse)"));
  EXPECT_FALSE(r.succeeded);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].file, "deep.mlir");
  EXPECT_EQ(r.diagnostics[0].line, 1001u);
  EXPECT_EQ(r.diagnostics[0].column, 8u);
  EXPECT_NE(r.diagnostics[0].message.find("nests deeper than 1000 levels"),
            std::string::npos);

  std::string deepEnough;
  for (int i = 0; i < 999; ++i)
    deepEnough += "module {\n";
  for (int i = 0; i < 999; ++i)
    deepEnough += "}\n";
  Recording ok =
      recordPipeline(deepEnough, "ok.mlir", options("builtin.module(cse)"));
  EXPECT_TRUE(ok.succeeded) << (ok.diagnostics.empty()
                                    ? std::string()
                                    : ok.diagnostics[0].message);
}

// By default the text of a snapshot is printed the first time it is asked
// for (from a copy of the IR, with the context the recording keeps alive),
// once, whichever thread asks; it is the same text as printing at once.
TEST(PipelineRecorder, SnapshotTextIsPrintedOnFirstUse) {
  RecordOptions deferred = options("builtin.module(cse,canonicalize,cse)");
  Recording lazy = recordPipeline(kFolding, "test.mlir", deferred);
  ASSERT_TRUE(lazy.succeeded);
  ASSERT_EQ(lazy.snapshots.size(), 3u);
  for (const Snapshot &s : lazy.snapshots)
    EXPECT_FALSE(s.ir.isMade()) << s.pass;
  EXPECT_FALSE(lazy.inputIR.isMade());

  RecordOptions now = deferred;
  now.deferText = false;
  Recording eager = recordPipeline(kFolding, "test.mlir", now);
  for (const Snapshot &s : eager.snapshots)
    EXPECT_TRUE(s.ir.isMade());

  // Several threads ask at once: one text, printed once.
  std::vector<const std::string *> seen(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] { seen[i] = lazy.snapshots[0].ir.get(); });
  for (std::thread &t : threads)
    t.join();
  for (const std::string *text : seen)
    EXPECT_EQ(text, seen[0]);
  EXPECT_TRUE(lazy.snapshots[0].ir.isMade());
  EXPECT_FALSE(lazy.snapshots[1].ir.isMade());

  EXPECT_EQ(*lazy.inputIR, *eager.inputIR);
  for (size_t i = 0; i < lazy.snapshots.size(); ++i)
    EXPECT_EQ(*lazy.snapshots[i].ir, *eager.snapshots[i].ir) << i;
  // A step that changed nothing shares its predecessor's text.
  EXPECT_EQ(lazy.snapshots[2].ir, lazy.snapshots[1].ir);
  EXPECT_EQ(lazy.outputIR, lazy.snapshots.back().ir);
  std::shared_ptr<const std::string> asShared = lazy.outputIR;
  EXPECT_EQ(asShared.get(), lazy.snapshots.back().ir.get());
}

TEST(PipelineRecorder, VerifierErrorsComeBackAsDiagnostics) {
  Recording r = recordPipeline(
      "%s = executor.open(\"nohost\") : !executor.session", "bad.mlir",
      options("builtin.module(cse)"));
  EXPECT_FALSE(r.succeeded);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].message.find("has no port"), std::string::npos);
  EXPECT_EQ(r.diagnostics[0].line, 1u);
}

TEST(PipelineRecorder, InvalidPipelineIsReported) {
  Recording r =
      recordPipeline(kFolding, "test.mlir", options("no-such-pass"));
  EXPECT_FALSE(r.succeeded);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("no-such-pass"), std::string::npos);
}

TEST(PipelineRecorder, MisspelledPassesAndPipelineOptionsGetASuggestion) {
  // The text entry (studio, language server) says what executor-opt and
  // executor-compile say: the nearest pass or pipeline, the nearest option
  // of a pipeline as of a pass.
  Recording pass = recordPipeline(kFolding, "test.mlir",
                                  options("builtin.module(canonicalze)"));
  ASSERT_EQ(pass.diagnostics.size(), 1u);
  EXPECT_NE(pass.diagnostics[0].message.find(
                "'canonicalze' is not a registered pass or pass pipeline "
                "(did you mean 'canonicalize'?)"),
            std::string::npos)
      << pass.diagnostics[0].message;
  Recording pipeline = recordPipeline(
      kFolding, "test.mlir",
      options("builtin.module(executor-default-pipeline{worksp=/tmp/w})"));
  ASSERT_EQ(pipeline.diagnostics.size(), 1u);
  EXPECT_NE(pipeline.diagnostics[0].message.find(
                "executor-default-pipeline has no option 'worksp' (did you "
                "mean 'workspace'?); its options are save-ir-after-each, "
                "workspace"),
            std::string::npos)
      << pipeline.diagnostics[0].message;
}

TEST(PipelineRecorder, StopsAtTheFailingPassWithItsDiagnostics) {
  // A dispatched target without an object: dispatch-executor-targets fails.
  constexpr const char *source = R"mlir(
module {
  module @k attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:1"}} {
    func.func @e() { return }
  }
  func.func @main() {
    catalyst.launch_kernel @k::@e() : () -> ()
    return
  }
}
)mlir";
  Recording r = recordPipeline(
      source, "nodispatch.mlir",
      options("builtin.module(cse,dispatch-executor-targets,canonicalize)"));
  EXPECT_FALSE(r.succeeded);
  ASSERT_EQ(r.snapshots.size(), 2u);
  EXPECT_FALSE(r.snapshots[0].failed);
  EXPECT_TRUE(r.snapshots[1].failed);
  EXPECT_EQ(r.snapshots[1].pass, "dispatch-executor-targets");
  ASSERT_EQ(r.snapshots[1].diagnostics.size(), 1u);
  const RecordedDiagnostic &d = r.snapshots[1].diagnostics[0];
  EXPECT_EQ(d.pass, "dispatch-executor-targets");
  EXPECT_NE(d.message.find("run cross-compile-targets first"),
            std::string::npos);
  EXPECT_EQ(d.line, 3u);
  EXPECT_FALSE(r.outputIR);
}

TEST(PipelineRecorder, WithoutIRRecordsOnlyTimingAndChanges) {
  RecordOptions o = options("builtin.module(cse)");
  o.recordIR = false;
  Recording r = recordPipeline(kFolding, "test.mlir", o);
  ASSERT_TRUE(r.succeeded);
  ASSERT_EQ(r.snapshots.size(), 1u);
  EXPECT_TRUE(r.snapshots[0].changed);
  EXPECT_FALSE(r.snapshots[0].ir);
}

TEST(PipelineRecorder, WritesSnapshotsByMode) {
  Recording r = recordPipeline(kFolding, "test.mlir",
                               options("builtin.module(cse,canonicalize,cse)"));
  ASSERT_TRUE(r.succeeded);
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("recorder", dir));
  auto exists = [&](const char *sub, const char *name) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, sub, name);
    return llvm::sys::fs::exists(path);
  };
  auto save = [&](const char *sub, SaveMode mode) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, sub);
    llvm::Error err = writeSnapshots(r, path, mode);
    EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  };
  save("pass", SaveMode::Pass);
  save("changed", SaveMode::Changed);
  save("pipeline", SaveMode::Pipeline);
  EXPECT_TRUE(exists("pass", "00_input.mlir"));
  EXPECT_TRUE(exists("pass", "01_cse.mlir"));
  EXPECT_TRUE(exists("pass", "03_cse.mlir"));
  EXPECT_TRUE(exists("changed", "02_canonicalize.mlir"));
  EXPECT_FALSE(exists("changed", "03_cse.mlir"));
  EXPECT_TRUE(exists("pipeline", "03_cse.mlir"));
  EXPECT_FALSE(exists("pipeline", "01_cse.mlir"));
  llvm::sys::fs::remove_directories(dir);
  EXPECT_FALSE(static_cast<bool>(parseSaveMode("pass").takeError()));
  llvm::Expected<SaveMode> bad = parseSaveMode("sometimes");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("pipeline, changed or pass"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// recordPipelineFrom: the rest of a pipeline on edited IR
//===----------------------------------------------------------------------===//

TEST(PipelineRecorderFrom, RerunOnTheRecordedIRGivesTheSameOutput) {
  RecordOptions o = options("builtin.module(cse,canonicalize,cse)");
  Recording whole = recordPipeline(kFolding, "test.mlir", o);
  ASSERT_TRUE(whole.succeeded);
  Recording rest =
      recordPipelineFrom(*whole.snapshots[0].ir, "edited.mlir", o, 0);
  ASSERT_TRUE(rest.succeeded);
  EXPECT_EQ(rest.firstStep, 1u);
  ASSERT_EQ(rest.snapshots.size(), 2u);
  EXPECT_EQ(rest.snapshots[0].index, 1u);
  EXPECT_EQ(rest.snapshots[0].pass, "canonicalize");
  EXPECT_EQ(rest.snapshots[1].index, 2u);
  EXPECT_EQ(*rest.inputIR, *whole.snapshots[0].ir);
  EXPECT_EQ(*rest.outputIR, *whole.outputIR);
}

TEST(PipelineRecorderFrom, RunsTheRestOnTheEditedText) {
  RecordOptions o = options("builtin.module(cse,canonicalize,cse)");
  // After cse, a user multiplies by 1 instead: canonicalize folds it away.
  constexpr const char *edited = R"mlir(
func.func @f(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %b = arith.muli %a, %c1 : i32
  return %b : i32
}
)mlir";
  Recording rest = recordPipelineFrom(edited, "edited.mlir", o, 0);
  ASSERT_TRUE(rest.succeeded);
  ASSERT_EQ(rest.snapshots.size(), 2u);
  EXPECT_TRUE(rest.snapshots[0].changed);
  EXPECT_EQ(rest.outputIR->find("arith.muli"), std::string::npos)
      << *rest.outputIR;
  EXPECT_NE(rest.outputIR->find("return %arg0"), std::string::npos)
      << *rest.outputIR;
}

TEST(PipelineRecorderFrom, AnEditThatDoesNotParseNamesItsLine) {
  RecordOptions o = options("builtin.module(cse,canonicalize)");
  Recording rest = recordPipelineFrom(
      "func.func @f(%a: i32) -> i32 {\n  return %b : i32\n}\n", "edited.mlir",
      o, 0);
  EXPECT_FALSE(rest.succeeded);
  EXPECT_TRUE(rest.snapshots.empty());
  EXPECT_FALSE(rest.inputIR);
  ASSERT_FALSE(rest.diagnostics.empty());
  EXPECT_EQ(rest.diagnostics[0].file, "edited.mlir");
  EXPECT_EQ(rest.diagnostics[0].line, 2u);
  EXPECT_NE(rest.diagnostics[0].message.find("undeclared SSA value"),
            std::string::npos)
      << rest.diagnostics[0].message;
}

TEST(PipelineRecorderFrom, AfterTheLastStepRunsNothing) {
  RecordOptions o = options("cse,canonicalize");
  Recording rest = recordPipelineFrom(kFolding, "t.mlir", o, 1);
  ASSERT_TRUE(rest.succeeded);
  EXPECT_TRUE(rest.snapshots.empty());
  EXPECT_EQ(rest.outputIR, rest.inputIR);
}

TEST(PipelineRecorderFrom, AStepOutOfRangeIsADiagnostic) {
  Recording rest =
      recordPipelineFrom(kFolding, "t.mlir", options("cse,canonicalize"), 2);
  EXPECT_FALSE(rest.succeeded);
  ASSERT_EQ(rest.diagnostics.size(), 1u);
  EXPECT_NE(rest.diagnostics[0].message.find("no step 2"), std::string::npos)
      << rest.diagnostics[0].message;
  EXPECT_NE(rest.diagnostics[0].message.find("2 step(s)"), std::string::npos);
}

TEST(PipelineRecorderFrom, StepsMatchTheRecordedSnapshots) {
  // Consecutive nested pipelines run as one adaptor: one snapshot, one step.
  std::string pipeline = "builtin.module(func.func(cse),func.func(canonicalize),"
                         "cse,canonicalize{max-iterations=3})";
  // (The text entry registers the passes that pipelineSteps parses.)
  Recording whole = recordPipeline(kFolding, "t.mlir", options(pipeline));
  ASSERT_TRUE(whole.succeeded);
  auto steps = pipelineSteps(pipeline);
  ASSERT_TRUE(static_cast<bool>(steps)) << llvm::toString(steps.takeError());
  ASSERT_EQ(steps->size(), whole.snapshots.size());
  EXPECT_EQ((*steps)[1], "cse");
  EXPECT_NE((*steps)[2].find("max-iterations=3"), std::string::npos);
  auto rest = remainingPipeline(pipeline, 1);
  ASSERT_TRUE(static_cast<bool>(rest));
  EXPECT_EQ(rest->rfind("builtin.module(canonicalize{", 0), 0u) << *rest;
  EXPECT_FALSE(static_cast<bool>(pipelineSteps("no-such-pass")))
      << "an invalid pipeline has no steps";
  llvm::consumeError(pipelineSteps("no-such-pass").takeError());
}

TEST(PipelineRecorderFrom, SpliceMarksTheEditedSnapshot) {
  RecordOptions o = options("builtin.module(cse,canonicalize,cse)");
  Recording whole = recordPipeline(kFolding, "test.mlir", o);
  auto text = std::make_shared<const std::string>(*whole.snapshots[0].ir);
  Recording rest = recordPipelineFrom(*text, "edited.mlir", o, 0);
  Recording spliced = spliceRecording(whole, 0, text, std::move(rest));
  ASSERT_EQ(spliced.snapshots.size(), 3u);
  EXPECT_TRUE(spliced.snapshots[0].edited);
  EXPECT_FALSE(spliced.snapshots[1].edited);
  EXPECT_EQ(spliced.snapshots[0].ir, text);
  EXPECT_EQ(spliced.snapshots[2].index, 2u);
  EXPECT_TRUE(spliced.succeeded);
  EXPECT_EQ(*spliced.outputIR, *whole.outputIR);
}

TEST(PipelineRecorderFrom, AnEditedInputDropsTheOldInputsDiagnostics) {
  RecordOptions o = options("builtin.module(cse)");
  Recording whole = recordPipeline(kFolding, "test.mlir", o);
  RecordedDiagnostic old;
  old.severity = RecordedDiagnostic::Severity::Warning;
  old.message = "about the old input";
  old.line = 3;
  whole.diagnostics.push_back(old);
  auto text = std::make_shared<const std::string>(*whole.snapshots[0].ir);
  // After a pass: the input is the same, its diagnostics stay.
  Recording afterPass = spliceRecording(
      whole, 0, text, recordPipelineFrom(*text, "edited.mlir", o, 0));
  ASSERT_EQ(afterPass.diagnostics.size(), 1u);
  EXPECT_EQ(afterPass.diagnostics[0].message, "about the old input");
  // The input itself edited: only the re-run's diagnostics.
  Recording input = spliceRecording(
      whole, -1, text, recordPipelineFrom(*text, "edited.mlir", o, -1));
  EXPECT_TRUE(input.diagnostics.empty());
  EXPECT_EQ(input.inputIR, text);
}

TEST(PipelineRecorder, SameAsComparesSnapshotsWithoutPrintingThem) {
  // The last cse finds nothing left to do: its snapshot shares the text of
  // the one before, and saying so prints neither.
  Recording r = recordPipeline(kFolding, "test.mlir",
                               options("builtin.module(cse,canonicalize,cse)"));
  ASSERT_EQ(r.snapshots.size(), 3u);
  ASSERT_FALSE(r.snapshots[2].changed);
  EXPECT_TRUE(r.snapshots[2].ir.sameAs(r.snapshots[1].ir));
  EXPECT_FALSE(r.snapshots[1].ir.sameAs(r.inputIR));
  EXPECT_FALSE(r.snapshots[1].ir.isMade());
  EXPECT_FALSE(r.snapshots[2].ir.isMade());
  EXPECT_FALSE(r.inputIR.isMade());
}
