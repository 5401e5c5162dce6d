//===- PipelineRecorderTest.cpp - the pipeline recorder -------------------===//
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Registration/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "TargetPrograms.h"
#include "TestFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <thread>

using namespace executor_studio;

using executor_test::kFoldingProgram;

namespace {
RecordOptions options(std::string pipeline) {
  RecordOptions o;
  o.pipeline = std::move(pipeline);
  return o;
}
} // namespace

TEST(PipelineRecorder, OneSnapshotPerPass) {
  Recording r = recordPipeline(kFoldingProgram, "test.mlir",
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
  Recording r = recordPipeline(kFoldingProgram, "test.mlir",
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
  Recording r = recordPipeline(kFoldingProgram, "test.mlir",
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

// The text is a slice of a larger buffer: what follows it is not read.
// MLIR's lexer stops at the NUL that ends a MemoryBuffer; handed text
// without one, it read on past the slice (what the fuzz targets of the
// dialects and passes crashed on: tests/fuzz, parse errors in inputs such as
// `mmrref.allocD`, reading whatever followed libFuzzer's input in the heap).
TEST(PipelineRecorder, ATextSliceIsParsedAloneNotWhatFollowsIt) {
  std::string buffer = std::string(kFoldingProgram) + "this is not MLIR {{{";
  llvm::StringRef slice(buffer.data(), std::string(kFoldingProgram).size());
  Recording r = recordPipeline(slice, "slice.mlir", options("builtin.module(cse)"));
  EXPECT_TRUE(r.succeeded);
  for (const RecordedDiagnostic &d : r.diagnostics)
    ADD_FAILURE() << d.line << ": " << d.message;
  // And a slice that ends inside an identifier ends there.
  std::string op = "mmrref.allocDmore";
  Recording bad = recordPipeline(llvm::StringRef(op.data(), 13), "op.mlir",
                                 options("builtin.module(cse)"));
  ASSERT_FALSE(bad.diagnostics.empty());
  EXPECT_EQ(bad.diagnostics[0].message,
            "Dialect `mmrref' not found for custom op 'mmrref.allocD' ");
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

// A deferred snapshot copies only the functions (ops of the module's body)
// a step changed and shares the others with the snapshot before: its text
// is the same as printing the whole module at once, in any order of asking,
// with locations and aliases, and with ops of the body that come and go.
TEST(PipelineRecorder, DeferredSnapshotsShareTheFunctionsAStepDidNotChange) {
  constexpr const char *kThree = R"mlir(
#map = affine_map<(d0) -> (d0 + 1)>
module attributes {test.name = "three"} {
  memref.global "private" constant @table : memref<2xi32> = dense<[1, 2]>
  func.func @folds(%a: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %b = arith.addi %a, %c0 : i32
    %c = arith.addi %a, %c0 : i32
    %d = arith.muli %b, %c : i32
    return %d : i32
  }
  func.func @same(%i: index) -> index {
    %j = affine.apply #map(%i)
    return %j : index
  }
  func.func private @unused() -> i32 {
    %c1 = arith.constant 1 : i32
    return %c1 : i32
  }
  func.func @calls(%a: i32) -> i32 {
    %r = func.call @folds(%a) : (i32) -> i32
    return %r : i32
  }
}
)mlir";
  for (bool debugInfo : {false, true}) {
    RecordOptions deferred =
        options("builtin.module(cse,canonicalize,inline,symbol-dce,cse)");
    deferred.printDebugInfo = debugInfo;
    Recording lazy = recordPipeline(kThree, "three.mlir", deferred);
    RecordOptions now = deferred;
    now.deferText = false;
    Recording eager = recordPipeline(kThree, "three.mlir", now);
    ASSERT_TRUE(lazy.succeeded && eager.succeeded);
    ASSERT_EQ(lazy.snapshots.size(), eager.snapshots.size());
    // Asked for from the last to the first.
    for (size_t i = lazy.snapshots.size(); i-- > 0;) {
      EXPECT_EQ(lazy.snapshots[i].changed, eager.snapshots[i].changed) << i;
      EXPECT_EQ(*lazy.snapshots[i].ir, *eager.snapshots[i].ir) << i;
    }
    EXPECT_EQ(*lazy.inputIR, *eager.inputIR);
    // The steps did change the module: @unused went, @folds folded.
    EXPECT_NE(lazy.snapshots.back().ir->find("@same"), std::string::npos);
    EXPECT_EQ(lazy.snapshots.back().ir->find("@unused"), std::string::npos);
    EXPECT_EQ(lazy.snapshots.back().ir->find("arith.addi"), std::string::npos);
    EXPECT_NE(lazy.snapshots[0].ir->find("test.name = \"three\""), std::string::npos);
  }
}

// By default the text of a snapshot is printed the first time it is asked
// for (from a copy of the IR, with the context the recording keeps alive),
// once, whichever thread asks; it is the same text as printing at once.
TEST(PipelineRecorder, SnapshotTextIsPrintedOnFirstUse) {
  RecordOptions deferred = options("builtin.module(cse,canonicalize,cse)");
  Recording lazy = recordPipeline(kFoldingProgram, "test.mlir", deferred);
  ASSERT_TRUE(lazy.succeeded);
  ASSERT_EQ(lazy.snapshots.size(), 3u);
  for (const Snapshot &s : lazy.snapshots)
    EXPECT_FALSE(s.ir.isMade()) << s.pass;
  EXPECT_FALSE(lazy.inputIR.isMade());

  RecordOptions now = deferred;
  now.deferText = false;
  Recording eager = recordPipeline(kFoldingProgram, "test.mlir", now);
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

TEST(PipelineRecorder, SnapshotLinesAreCountedOnceForEveryCopy) {
  EXPECT_EQ(IRText().lines(), 0u);
  IRText text(std::make_shared<const std::string>("a\nb\n\nc"));
  EXPECT_EQ(text.lines(), 3u);
  IRText copy = text;
  EXPECT_EQ(copy.lines(), 3u);
  // A deferred text is made for it, and counts as the same text made now.
  RecordOptions deferred = options("builtin.module(cse)");
  Recording lazy = recordPipeline(kFoldingProgram, "test.mlir", deferred);
  ASSERT_TRUE(lazy.succeeded);
  Recording copied = lazy; // (as a cached recording's copies share texts)
  EXPECT_EQ(copied.snapshots[0].ir.lines(),
            llvm::StringRef(*lazy.snapshots[0].ir).count('\n'));
  EXPECT_GT(lazy.snapshots[0].ir.lines(), 0u);
}

TEST(PipelineRecorder, DroppedCopiesAreDestroyedOffTheDroppingThread) {
  // The copies of a deferred recording keep their context's owner alive:
  // when the recording is dropped they are destroyed on the recorder's own
  // thread, and the owner goes with the last of them, there, once
  // waitForDroppedCopies has returned; the texts were right until then.
  // The text entry registers the passes, once.
  ASSERT_TRUE(recordPipeline(kFoldingProgram, "test.mlir", options("builtin.module(cse)")).succeeded);
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  std::atomic<bool> released{false};
  std::thread::id releasedOn;
  std::string printed;
  {
    auto context = std::shared_ptr<mlir::MLIRContext>(
        new mlir::MLIRContext(registry, mlir::MLIRContext::Threading::DISABLED),
        [&](mlir::MLIRContext *ctx) {
          releasedOn = std::this_thread::get_id();
          delete ctx;
          released = true;
        });
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(kFoldingProgram, context.get());
    ASSERT_TRUE(module);
    Recording lazy = recordPipeline(module->getOperation(),
                                    options("builtin.module(cse,canonicalize)"),
                                    context);
    ASSERT_TRUE(lazy.succeeded);
    module = nullptr; // the recording's copies are all that is left
    context = nullptr;
    EXPECT_FALSE(released);
    printed = *lazy.snapshots.back().ir; // drops that step's copy
    EXPECT_FALSE(released);              // the others still need it
  }
  waitForDroppedCopies();
  EXPECT_TRUE(released);
  EXPECT_NE(releasedOn, std::this_thread::get_id());
  EXPECT_NE(printed.find("arith.muli"), std::string::npos) << printed;
}

TEST(PipelineRecorder, DeferredTextsNeedNoCopyOfTheInputOrTheLastStep) {
  // From text, the input is parsed again when it is asked for and the last
  // step is printed from the module itself: the same texts as printed at
  // once, with and without locations, asked for on another thread too.
  for (bool debugInfo : {false, true}) {
    RecordOptions deferred = options("builtin.module(cse,canonicalize)");
    deferred.printDebugInfo = debugInfo;
    Recording lazy = recordPipeline(kFoldingProgram, "test.mlir", deferred);
    ASSERT_TRUE(lazy.succeeded);
    ASSERT_TRUE(lazy.snapshots.back().changed);
    RecordOptions now = deferred;
    now.deferText = false;
    Recording eager = recordPipeline(kFoldingProgram, "test.mlir", now);
    std::string input, output;
    std::thread other([&] {
      input = *lazy.inputIR;
      output = *lazy.outputIR;
    });
    other.join();
    EXPECT_EQ(input, *eager.inputIR);
    EXPECT_EQ(output, *eager.outputIR);
    EXPECT_EQ(*lazy.snapshots[0].ir, *eager.snapshots[0].ir);
    EXPECT_EQ(input.find("loc(") != std::string::npos, debugInfo) << input;
  }
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
      recordPipeline(kFoldingProgram, "test.mlir", options("no-such-pass"));
  EXPECT_FALSE(r.succeeded);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("no-such-pass"), std::string::npos);
}

TEST(PipelineRecorder, MisspelledPassesAndPipelineOptionsGetASuggestion) {
  // The text entry (studio, language server) says what executor-opt and
  // executor-compile say: the nearest pass or pipeline, the nearest option
  // of a pipeline as of a pass.
  Recording pass = recordPipeline(kFoldingProgram, "test.mlir",
                                  options("builtin.module(canonicalze)"));
  ASSERT_EQ(pass.diagnostics.size(), 1u);
  EXPECT_NE(pass.diagnostics[0].message.find(
                "'canonicalze' is not a registered pass or pass pipeline "
                "(did you mean 'canonicalize'?)"),
            std::string::npos)
      << pass.diagnostics[0].message;
  Recording pipeline = recordPipeline(
      kFoldingProgram, "test.mlir",
      options("builtin.module(executor-default-pipeline{worksp=/tmp/w})"));
  ASSERT_EQ(pipeline.diagnostics.size(), 1u);
  EXPECT_NE(pipeline.diagnostics[0].message.find(
                "executor-default-pipeline has no option 'worksp' (did you "
                "mean 'workspace'?); its options are debug, executor-triple, "
                "opt-level, save-ir-after-each, workspace"),
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
  Recording r = recordPipeline(kFoldingProgram, "test.mlir", o);
  ASSERT_TRUE(r.succeeded);
  ASSERT_EQ(r.snapshots.size(), 1u);
  EXPECT_TRUE(r.snapshots[0].changed);
  EXPECT_FALSE(r.snapshots[0].ir);
}

TEST(PipelineRecorder, WritesSnapshotsByMode) {
  Recording r = recordPipeline(kFoldingProgram, "test.mlir",
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
  Recording whole = recordPipeline(kFoldingProgram, "test.mlir", o);
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
  Recording rest = recordPipelineFrom(kFoldingProgram, "t.mlir", o, 1);
  ASSERT_TRUE(rest.succeeded);
  EXPECT_TRUE(rest.snapshots.empty());
  EXPECT_EQ(rest.outputIR, rest.inputIR);
}

TEST(PipelineRecorderFrom, AStepOutOfRangeIsADiagnostic) {
  Recording rest =
      recordPipelineFrom(kFoldingProgram, "t.mlir", options("cse,canonicalize"), 2);
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
  Recording whole = recordPipeline(kFoldingProgram, "t.mlir", options(pipeline));
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
  Recording whole = recordPipeline(kFoldingProgram, "test.mlir", o);
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
  Recording whole = recordPipeline(kFoldingProgram, "test.mlir", o);
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
  Recording r = recordPipeline(kFoldingProgram, "test.mlir",
                               options("builtin.module(cse,canonicalize,cse)"));
  ASSERT_EQ(r.snapshots.size(), 3u);
  ASSERT_FALSE(r.snapshots[2].changed);
  EXPECT_TRUE(r.snapshots[2].ir.sameAs(r.snapshots[1].ir));
  EXPECT_FALSE(r.snapshots[1].ir.sameAs(r.inputIR));
  EXPECT_FALSE(r.snapshots[1].ir.isMade());
  EXPECT_FALSE(r.snapshots[2].ir.isMade());
  EXPECT_FALSE(r.inputIR.isMade());
}

namespace {
/// A host with a dispatched AArch64 target and a local one (for the host's
/// triple): cross-compile-targets lowers both on their own.
const std::string kTwoTargets = executor_test::twoTargetProgram("arith.addf");
using executor_test::Workspace;

std::vector<std::string> stepsOf(const Snapshot &s, llvm::StringRef target) {
  std::vector<std::string> steps;
  for (const Snapshot &n : s.nested)
    if (n.target == target)
      steps.push_back(n.pass);
  return steps;
}
} // namespace

TEST(PipelineRecorderNested, RecordsEachTargetDownToItsAssembly) {
  Workspace ws("nested");
  RecordOptions o = options(ws.crossCompilePipeline(",cse"));
  o.recordNested = true;
  Recording r = recordPipeline(kTwoTargets, "two.mlir", o);
  ASSERT_TRUE(r.succeeded);
  ASSERT_EQ(r.snapshots.size(), 2u);
  const Snapshot &cross = r.snapshots[0];
  EXPECT_EQ(cross.pass, "cross-compile-targets");
  EXPECT_TRUE(r.snapshots[1].nested.empty());

  for (llvm::StringRef target : {"arm", "local"}) {
    std::vector<std::string> steps = stepsOf(cross, target);
    ASSERT_GE(steps.size(), 5u) << target.str();
    EXPECT_EQ(steps.front(), target.str() + "/extracted");
    EXPECT_EQ(steps[steps.size() - 3], target.str() + "/llvm");
    EXPECT_EQ(steps[steps.size() - 2], target.str() + "/llvm-opt");
    EXPECT_EQ(steps.back(), target.str() + "/asm");
    // The target's own pipeline lies between, ending in the LLVM dialect.
    EXPECT_TRUE(llvm::is_contained(steps, target.str() + "/convert-func-to-llvm"))
        << target.str();
  }
  // Numbered within each target from its extracted module, in order.
  unsigned armIndex = 0;
  for (const Snapshot &n : cross.nested) {
    if (n.target != "arm")
      continue;
    EXPECT_EQ(n.index, armIndex++);
    ASSERT_TRUE(n.ir) << n.pass;
    EXPECT_GE(n.milliseconds, 0);
  }

  const Snapshot *extracted = findSnapshot(r, "arm/extracted");
  ASSERT_TRUE(extracted);
  EXPECT_EQ(extracted->kind, SnapshotKind::MLIR);
  EXPECT_NE(extracted->ir->find("scf.for"), std::string::npos);
  EXPECT_EQ(extracted->ir->find("catalyst.dispatch"), std::string::npos);

  const Snapshot *lowered =
      findSnapshot(r, "cross-compile-targets/arm/convert-func-to-llvm");
  ASSERT_TRUE(lowered);
  EXPECT_EQ(lowered, findSnapshot(r, "arm/convert-func-to-llvm"));
  EXPECT_TRUE(lowered->changed);
  EXPECT_NE(lowered->ir->find("llvm.func @twice"), std::string::npos);

  const Snapshot *ll = findSnapshot(r, "arm/llvm");
  ASSERT_TRUE(ll);
  EXPECT_EQ(ll->kind, SnapshotKind::LLVMIR);
  EXPECT_NE(ll->ir->find("target triple = \"aarch64-unknown-linux-gnu\""),
            std::string::npos);
  EXPECT_NE(ll->ir->find("define "), std::string::npos);
  const Snapshot *opt = findSnapshot(r, "arm/llvm-opt");
  ASSERT_TRUE(opt);
  EXPECT_TRUE(opt->changed); // O2 changes the loop
  EXPECT_NE(*opt->ir, *ll->ir);

  // AArch64 assembly for the dispatched target, the host's for the local.
  const Snapshot *armAsm = findSnapshot(r, "cross-compile-targets/arm/asm");
  ASSERT_TRUE(armAsm);
  EXPECT_EQ(armAsm->kind, SnapshotKind::Assembly);
  EXPECT_NE(armAsm->ir->find("twice:"), std::string::npos);
  EXPECT_NE(armAsm->ir->find("ret"), std::string::npos);
  EXPECT_NE(armAsm->ir->find("x0"), std::string::npos) << *armAsm->ir;
  EXPECT_EQ(armAsm->ir->find("%rsp"), std::string::npos);
  const Snapshot *localAsm = findSnapshot(r, "local/asm");
  ASSERT_TRUE(localAsm);
  EXPECT_NE(localAsm->ir->find("same:"), std::string::npos);
  EXPECT_EQ(localAsm->ir->find("x0,"), std::string::npos);
}

TEST(PipelineRecorderNested, OffByDefaultAndWithoutIR) {
  Workspace ws("nested");
  RecordOptions o = options(ws.crossCompilePipeline());
  Recording plain = recordPipeline(kTwoTargets, "two.mlir", o);
  ASSERT_TRUE(plain.succeeded);
  EXPECT_TRUE(plain.snapshots[0].nested.empty());
  o.recordNested = true;
  o.recordIR = false;
  Recording timingOnly = recordPipeline(kTwoTargets, "two.mlir", o);
  ASSERT_TRUE(timingOnly.succeeded);
  EXPECT_TRUE(timingOnly.snapshots[0].nested.empty());
}

TEST(PipelineRecorderNested, FindsSnapshotsByNumberAndName) {
  Recording r = recordPipeline(kFoldingProgram, "test.mlir",
                               options("builtin.module(cse,canonicalize,cse)"));
  ASSERT_EQ(r.snapshots.size(), 3u);
  EXPECT_EQ(findSnapshot(r, "1"), &r.snapshots[0]);
  EXPECT_EQ(findSnapshot(r, "3"), &r.snapshots[2]);
  EXPECT_EQ(findSnapshot(r, "canonicalize"), &r.snapshots[1]);
  EXPECT_EQ(findSnapshot(r, "cse"), &r.snapshots[0]);
  EXPECT_EQ(findSnapshot(r, "0"), nullptr);
  EXPECT_EQ(findSnapshot(r, "4"), nullptr);
  EXPECT_EQ(findSnapshot(r, "cse/asm"), nullptr);
}

TEST(PipelineRecorderNested, WritesEachTargetsStepsInItsOwnDirectory) {
  Workspace ws("nested");
  RecordOptions o = options(ws.crossCompilePipeline());
  o.recordNested = true;
  Recording r = recordPipeline(kTwoTargets, "two.mlir", o);
  ASSERT_TRUE(r.succeeded);
  llvm::SmallString<128> dir(ws.path);
  llvm::sys::path::append(dir, "ir");
  ASSERT_FALSE(static_cast<bool>(writeSnapshots(r, dir, SaveMode::Pass)));
  auto exists = [&](llvm::StringRef relative) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, relative);
    return llvm::sys::fs::exists(path);
  };
  EXPECT_TRUE(exists("00_input.mlir"));
  EXPECT_TRUE(exists("01_cross-compile-targets.mlir"));
  EXPECT_TRUE(exists("arm/00_extracted.mlir"));
  const Snapshot *armAsm = findSnapshot(r, "arm/asm");
  const Snapshot *armLL = findSnapshot(r, "arm/llvm");
  ASSERT_TRUE(armAsm && armLL);
  char name[64];
  std::snprintf(name, sizeof name, "arm/%02u_asm.s", armAsm->index);
  EXPECT_TRUE(exists(name)) << name;
  std::snprintf(name, sizeof name, "arm/%02u_llvm.ll", armLL->index);
  EXPECT_TRUE(exists(name)) << name;
  EXPECT_TRUE(exists("local/00_extracted.mlir"));
}
