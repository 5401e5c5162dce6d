//===- RerunTest.cpp - edit a pass's IR and re-run the rest ---------------===//
//
// The studio's workbench loop against the real recorder, executor-opt and
// executor-server: edit the IR after pass N, re-run N+1.., revert, save the
// edit and reproduce the run from the saved file.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "StudioModel/Studio.h"
#include "TestFiles.h"

#include "llvm/Support/Program.h"
#include "CrashingWorker.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

using namespace executor_studio;
using namespace executor_studio::gui;
using namespace std::chrono_literals;

using executor_test::kFoldingProgram;
using executor_test::readFile;

namespace {
StudioOptions options() {
  StudioOptions o;
  o.executor.serverPath = EXECUTOR_SERVER_PATH;
  return o;
}

std::string replaced(std::string text, const std::string &from, const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "no " << from << " in\n" << text;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

std::string trimmed(const std::string &text) {
  size_t e = text.find_last_not_of(" \n");
  return e == std::string::npos ? "" : text.substr(0, e + 1);
}

/// Runs the real executor-opt; its stdout and stderr.
std::string executorOpt(const std::string &file, const std::string &pipeline, int &status) {
  std::string out = file + ".out";
  std::string passPipeline = "--pass-pipeline=" + pipeline;
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out),
                                                llvm::StringRef(out)};
  status = llvm::sys::ExecuteAndWait(EXECUTOR_OPT_PATH,
                                     {EXECUTOR_OPT_PATH, file, passPipeline},
                                     /*Env=*/std::nullopt, redirects, /*SecondsToWait=*/120);
  return readFile(out);
}

constexpr const char *kPipeline = "builtin.module(cse,canonicalize,cse)";
} // namespace

TEST(Rerun, EditAtAPassRerunsTheRestRevertsAndReproduces) {
  Studio studio(options());
  studio.setPipelineText(kPipeline);
  studio.openText("f.mlir", kFoldingProgram);
  ASSERT_TRUE(studio.waitForRecording(60s));
  PipelineModel &passes = studio.passes();
  ASSERT_EQ(passes.passCount(), 3u);
  std::string afterCse = *passes.pass(0).ir;
  std::string output = *passes.recording().outputIR;
  studio.passes().select(1);

  // After cse: square %a + 1 instead; canonicalize keeps the add.
  std::string edited =
      replaced(afterCse, "arith.addi %arg0, %c0_i32", "arith.addi %arg0, %c1_i32");
  edited = replaced(edited, "%c0_i32 = arith.constant 0 : i32",
                    "%c1_i32 = arith.constant 1 : i32");
  studio.rerunFrom(0, edited);
  ASSERT_TRUE(studio.waitForRecording(60s));
  EXPECT_TRUE(studio.hasEdit()) << studio.status();
  EXPECT_EQ(studio.editedPass(), 0);
  EXPECT_TRUE(studio.editErrors().empty());
  ASSERT_EQ(passes.passCount(), 3u) << "the pass list keeps every pass";
  EXPECT_TRUE(passes.pass(0).edited);
  EXPECT_FALSE(passes.pass(1).edited);
  EXPECT_EQ(*passes.pass(0).ir, edited);
  EXPECT_EQ(passes.selected(), 1) << "the selection stays";
  std::string rerunOutput = *passes.recording().outputIR;
  EXPECT_NE(rerunOutput, output);
  EXPECT_NE(rerunOutput.find("arith.addi"), std::string::npos) << rerunOutput;
  EXPECT_NE(studio.status().find("re-ran 2 passes"), std::string::npos) << studio.status();
  // The diff of pass 2 is against the edited text.
  EXPECT_EQ(passes.diffView().left->size(), passes.diffView().left->size());

  // Saved, it reproduces the run: executor-opt with the rest of the pipeline.
  // The steps as the pass manager prints them, options spelled out.
  std::string rest = studio.editRemainingPipeline();
  EXPECT_EQ(rest.rfind("builtin.module(canonicalize{", 0), 0u) << rest;
  EXPECT_EQ(rest.substr(rest.size() - 5), ",cse)") << rest;
  std::string dir = ::testing::TempDir() + "/studio-rerun";
  std::filesystem::create_directories(dir);
  std::string saved = dir + "/edited.mlir";
  std::string error;
  ASSERT_TRUE(studio.saveEdit(saved, error)) << error;
  std::string text = readFile(saved);
  EXPECT_EQ(text.rfind("// Edited in executor-studio: the IR after pass 1 (cse)", 0), 0u)
      << text;
  EXPECT_NE(text.find("--pass-pipeline='" + rest + "'"), std::string::npos) << text;
  int status = -1;
  std::string reproduced = executorOpt(saved, studio.editRemainingPipeline(), status);
  ASSERT_EQ(status, 0) << reproduced;
  EXPECT_EQ(trimmed(reproduced), trimmed(rerunOutput));
  // And through the recorder's text entry, the same.
  RecordOptions ro;
  ro.pipeline = studio.editRemainingPipeline();
  Recording again = recordPipeline(text, "edited.mlir", ro);
  ASSERT_TRUE(again.succeeded);
  EXPECT_EQ(*again.outputIR, rerunOutput);

  // Revert: the document's own recording again.
  ASSERT_TRUE(studio.revertEdit());
  EXPECT_FALSE(studio.hasEdit());
  EXPECT_FALSE(passes.pass(0).edited);
  EXPECT_EQ(*passes.pass(0).ir, afterCse);
  EXPECT_EQ(*passes.recording().outputIR, output);
  EXPECT_FALSE(studio.revertEdit()) << "nothing left to revert";
  EXPECT_FALSE(studio.saveEdit(saved, error));
}

TEST(Rerun, OneRerunPassIsCountedInTheSingular) {
  Studio studio(options());
  studio.setPipelineText(kPipeline);
  studio.openText("f.mlir", kFoldingProgram);
  ASSERT_TRUE(studio.waitForRecording(60s));
  // An edit after the second pass re-runs the third only.
  studio.rerunFrom(1, replaced(*studio.passes().irAt(1), "arith.muli", "arith.addi"));
  ASSERT_TRUE(studio.waitForRecording(60s));
  ASSERT_TRUE(studio.hasEdit()) << studio.status();
  EXPECT_NE(studio.status().find("re-ran 1 pass after the edit of pass 2"), std::string::npos)
      << studio.status();
}

TEST(Rerun, AnEditThatDoesNotParseShowsItsLineAndKeepsTheRecording) {
  Studio studio(options());
  studio.setPipelineText(kPipeline);
  studio.openText("f.mlir", kFoldingProgram);
  ASSERT_TRUE(studio.waitForRecording(60s));
  std::string output = *studio.passes().recording().outputIR;
  std::string broken = replaced(*studio.passes().pass(1).ir, "return %", "return %nope, %");
  studio.rerunFrom(1, broken);
  ASSERT_TRUE(studio.waitForRecording(60s));
  EXPECT_FALSE(studio.hasEdit());
  ASSERT_FALSE(studio.editErrors().empty());
  const RecordedDiagnostic &d = studio.editErrors()[0];
  size_t line = 1 + std::count(broken.begin(), broken.begin() + broken.find("%nope"), '\n');
  EXPECT_EQ(d.line, line);
  EXPECT_GT(d.column, 0u);
  EXPECT_TRUE(studio.statusIsError());
  EXPECT_NE(studio.status().find("line " + std::to_string(line)), std::string::npos)
      << studio.status();
  // Listed under Diagnostics first, at its line of the edited text.
  ASSERT_FALSE(studio.passes().diagnostics().empty());
  const DiagnosticItem &listed = studio.passes().diagnostics()[0];
  EXPECT_TRUE(listed.edit);
  EXPECT_EQ(listed.line, line);
  EXPECT_EQ(listed.snapshot, 1);
  EXPECT_EQ(listed.pass, "edit of " + studio.passes().positionName(1));
  EXPECT_EQ(listed.message, d.message);
  // The rest is as it was.
  EXPECT_EQ(studio.passes().passCount(), 3u);
  EXPECT_FALSE(studio.passes().pass(1).edited);
  EXPECT_EQ(*studio.passes().recording().outputIR, output);
  // A verifier error is shown the same way.
  std::string invalid =
      replaced(*studio.passes().pass(1).ir, "-> i32 {", "-> i64 {");
  studio.rerunFrom(1, invalid);
  ASSERT_TRUE(studio.waitForRecording(60s));
  ASSERT_FALSE(studio.editErrors().empty());
  EXPECT_GT(studio.editErrors()[0].line, 0u);
  // A good edit clears the list.
  studio.rerunFrom(1, *studio.passes().pass(1).ir);
  ASSERT_TRUE(studio.waitForRecording(60s));
  for (const DiagnosticItem &item : studio.passes().diagnostics())
    EXPECT_FALSE(item.edit) << item.message;
}

TEST(Rerun, AFailingRerunOpensAtTheFailingPass) {
  Studio studio(options());
  studio.setPipelineText("builtin.module(cse,dispatch-executor-targets)");
  studio.openText("f.mlir", kFoldingProgram);
  ASSERT_TRUE(studio.waitForRecording(60s));
  ASSERT_TRUE(studio.passes().recording().succeeded);
  // A dispatched target without an object: dispatch-executor-targets fails.
  std::string edited = R"mlir(module {
  module @k attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:1"}} {
    func.func @e() { return }
  }
  func.func @main() {
    catalyst.launch_kernel @k::@e() : () -> ()
    return
  }
}
)mlir";
  studio.rerunFrom(0, edited);
  ASSERT_TRUE(studio.waitForRecording(60s));
  ASSERT_TRUE(studio.hasEdit());
  EXPECT_FALSE(studio.passes().recording().succeeded);
  EXPECT_EQ(studio.passes().selected(), 1);
  EXPECT_TRUE(studio.passes().pass(1).failed);
  EXPECT_TRUE(studio.statusIsError());
}

TEST(Rerun, KernelsOfTheRerunAreLaunched) {
  Studio studio(options());
  ASSERT_TRUE(studio.open(SAMPLES_DIR "/cross-compile-dispatch.mlir"));
  ASSERT_TRUE(studio.waitForRecording(120s));
  PipelineModel &passes = studio.passes();
  ASSERT_TRUE(passes.recording().succeeded) << studio.status();
  int compile = -1;
  for (size_t i = 0; i < passes.passCount(); ++i)
    if (passes.pass(i).pass == "cross-compile-targets")
      compile = static_cast<int>(i);
  ASSERT_GT(compile, 0);
  std::string oldWorkspace = studio.workspace();
  // Before the targets are compiled: scale by 2 instead of 0.5.
  std::string edited = replaced(*passes.pass(compile - 1).ir, "5.000000e-01", "2.000000e+00");
  studio.rerunFrom(compile - 1, edited);
  ASSERT_TRUE(studio.waitForRecording(120s));
  ASSERT_TRUE(studio.hasEdit()) << studio.status();
  ASSERT_TRUE(passes.recording().succeeded) << studio.status();
  EXPECT_NE(studio.workspace(), oldWorkspace) << "the re-run builds objects of its own";
  ASSERT_EQ(studio.kernels().size(), 3u);
  int scale = studio.findKernel("scale");
  ASSERT_GE(scale, 0);
  EXPECT_EQ(studio.kernels()[scale].object.rfind(studio.workspace(), 0), 0u)
      << studio.kernels()[scale].object;
  EXPECT_TRUE(std::filesystem::exists(studio.kernels()[scale].object));

  studio.executor().startLocal();
  ASSERT_TRUE(studio.executor().waitIdle(20s));
  ASSERT_EQ(studio.executor().state(), ExecutorState::Connected)
      << studio.executor().error();
  studio.inputText(static_cast<size_t>(scale), 0) = "[1, 2, 3, 4]";
  uint64_t id = studio.launch(static_cast<size_t>(scale), false);
  ASSERT_NE(id, 0u) << studio.status();
  ASSERT_TRUE(studio.executor().waitIdle(30s));
  const LaunchRecord *r = studio.executor().findLaunch(id);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, LaunchRecord::Status::Done) << r->error;
  std::vector<double> values(4);
  std::memcpy(values.data(), r->results[0].bytes.data(), 32);
  EXPECT_EQ(values, (std::vector<double>{2, 4, 6, 8}));

  // Reverted, the document's objects (scale by 0.5) again.
  ASSERT_TRUE(studio.revertEdit());
  EXPECT_EQ(studio.workspace(), oldWorkspace);
  id = studio.launch(static_cast<size_t>(studio.findKernel("scale")), false);
  ASSERT_TRUE(studio.executor().waitIdle(30s));
  r = studio.executor().findLaunch(id);
  ASSERT_TRUE(r && r->status == LaunchRecord::Status::Done);
  std::memcpy(values.data(), r->results[0].bytes.data(), 32);
  EXPECT_EQ(values, (std::vector<double>{0.5, 1, 1.5, 2}));
}

TEST(Rerun, AQuotedWorkspaceOfACustomPipelineIsReplacedToo) {
  // A custom pipeline whose workspace needs quotes (a space in the path):
  // the re-run still compiles into a workspace of its own.
  std::string dir = std::filesystem::temp_directory_path().string() +
                    "/rerun quoted " + std::to_string(getpid());
  Studio studio(options());
  studio.setPipelineText(Studio::defaultPipeline(dir + "/ws"));
  ASSERT_FALSE(studio.usesDefaultPipeline());
  ASSERT_TRUE(studio.open(SAMPLES_DIR "/cross-compile-dispatch.mlir"));
  ASSERT_TRUE(studio.waitForRecording(120s));
  PipelineModel &passes = studio.passes();
  ASSERT_TRUE(passes.recording().succeeded) << studio.status();
  EXPECT_EQ(studio.workspace(), dir + "/ws");
  int compile = -1;
  for (size_t i = 0; i < passes.passCount(); ++i)
    if (passes.pass(i).pass == "cross-compile-targets")
      compile = static_cast<int>(i);
  ASSERT_GT(compile, 0);
  studio.rerunFrom(compile - 1, *passes.pass(compile - 1).ir);
  ASSERT_TRUE(studio.waitForRecording(120s));
  ASSERT_TRUE(passes.recording().succeeded) << studio.status();
  EXPECT_NE(studio.workspace(), dir + "/ws");
  int scale = studio.findKernel("scale");
  ASSERT_GE(scale, 0);
  EXPECT_EQ(studio.kernels()[scale].object.rfind(studio.workspace(), 0), 0u)
      << studio.kernels()[scale].object;
  EXPECT_TRUE(std::filesystem::exists(studio.kernels()[scale].object));
  std::filesystem::remove_all(dir);
}

TEST(Rerun, ACrashingWorkerLeavesTheRecordingAndTheEdit) {
  Studio studio(options());
  studio.setPipelineText(kPipeline);
  studio.openText("f.mlir", kFoldingProgram);
  ASSERT_TRUE(studio.waitForRecording(60s));
  ASSERT_TRUE(studio.passes().recording().succeeded);
  size_t snapshots = studio.passes().recording().snapshots.size();
  std::string after1 = *studio.passes().irAt(0);

  // The recorder crashes in its worker (this test program, started with
  // --record-worker): an error, and nothing the studio shows is lost.
  std::string edit = replaced(after1, "arith.muli", "arith.addi");
  bool idle = [&] {
    executor_test::CrashingWorker crashing;
    studio.rerunFrom(0, edit);
    return studio.waitForRecording(60s);
  }();
  ASSERT_TRUE(idle);
  EXPECT_TRUE(studio.statusIsError());
  EXPECT_NE(studio.status().find("the pipeline worker failed (killed by signal"),
            std::string::npos)
      << studio.status();
  EXPECT_NE(studio.status().find("the edit is kept"), std::string::npos) << studio.status();
  ASSERT_EQ(studio.editErrors().size(), 1u);
  EXPECT_NE(studio.editErrors()[0].message.find("killed by signal"), std::string::npos);
  EXPECT_FALSE(studio.hasEdit());
  EXPECT_EQ(studio.passes().recording().snapshots.size(), snapshots);
  EXPECT_EQ(*studio.passes().irAt(0), after1);

  // The same edit runs once the worker does not crash.
  studio.rerunFrom(0, edit);
  ASSERT_TRUE(studio.waitForRecording(60s));
  EXPECT_TRUE(studio.hasEdit()) << studio.status();
  EXPECT_EQ(studio.editedText(), edit);

  // A recording of the document that crashes keeps what is shown too.
  idle = [&] {
    executor_test::CrashingWorker crashing;
    studio.record();
    return studio.waitForRecording(60s);
  }();
  ASSERT_TRUE(idle);
  EXPECT_TRUE(studio.statusIsError());
  EXPECT_NE(studio.status().find("killed by signal"), std::string::npos) << studio.status();
  EXPECT_TRUE(studio.hasEdit());
  EXPECT_EQ(studio.passes().recording().snapshots.size(), snapshots);
}

TEST(Rerun, ARecoveryDirIsNamedWithoutDoubleOrTrailingSlashes) {
  RecoveryStore store("/tmp//state/executor-studio//recovery/");
  std::string path = store.pathFor("f.mlir");
  EXPECT_EQ(path.rfind("/tmp/state/executor-studio/recovery/", 0), 0u) << path;
  EXPECT_EQ(path.find("//"), std::string::npos) << path;

  const char *saved = std::getenv("XDG_STATE_HOME");
  std::string before = saved ? saved : "";
  ::setenv("XDG_STATE_HOME", "/tmp/state/", 1);
  EXPECT_EQ(RecoveryStore::defaultDir(), "/tmp/state/executor-studio/recovery");
  if (saved)
    ::setenv("XDG_STATE_HOME", before.c_str(), 1);
  else
    ::unsetenv("XDG_STATE_HOME");
}

TEST(Rerun, AnEditIsKeptUntilRevertedAndOfferedToTheNextStudio) {
  std::string dir = ::testing::TempDir() + "/recovery-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  StudioOptions o = options();
  o.recoveryDir = dir;
  std::string edit;
  {
    Studio studio(o);
    studio.setPipelineText(kPipeline);
    studio.openText("f.mlir", kFoldingProgram);
    ASSERT_TRUE(studio.waitForRecording(60s));
    EXPECT_EQ(studio.recoveredEdit(), nullptr);
    edit = replaced(*studio.passes().irAt(0), "arith.muli", "arith.addi");
    studio.rerunFrom(0, edit);
    ASSERT_TRUE(studio.waitForRecording(60s));
    ASSERT_TRUE(studio.hasEdit());
  } // closed with the edit applied

  RecoveryStore store(dir);
  std::string error;
  std::optional<RecoveredEdit> kept = store.load("f.mlir", error);
  ASSERT_TRUE(kept) << error;
  EXPECT_EQ(kept->pass, 0);
  EXPECT_EQ(kept->text, edit);
  EXPECT_EQ(kept->pipeline, kPipeline);
  EXPECT_FALSE(store.load("g.mlir", error));
  EXPECT_TRUE(error.empty()) << error;

  Studio next(o);
  next.setPipelineText(kPipeline);
  next.openText("f.mlir", kFoldingProgram);
  ASSERT_NE(next.recoveredEdit(), nullptr);
  EXPECT_EQ(next.recoveredEdit()->text, edit);
  ASSERT_TRUE(next.waitForRecording(60s));
  EXPECT_FALSE(next.hasEdit());
  ASSERT_TRUE(next.restoreRecoveredEdit());
  EXPECT_EQ(next.recoveredEdit(), nullptr);
  ASSERT_TRUE(next.waitForRecording(60s));
  EXPECT_TRUE(next.hasEdit());
  EXPECT_EQ(next.editedText(), edit);
  EXPECT_EQ(next.editedPass(), 0);
  // Reverting drops it for good.
  ASSERT_TRUE(next.revertEdit());
  EXPECT_FALSE(store.load("f.mlir", error));

  // A file that is not a recovery file is named, not trusted.
  std::ofstream(store.pathFor("f.mlir")) << "{\"document\": 3}";
  Studio broken(o);
  broken.openText("f.mlir", kFoldingProgram);
  EXPECT_EQ(broken.recoveredEdit(), nullptr);
  EXPECT_TRUE(broken.statusIsError());
  EXPECT_NE(broken.status().find("is not a recovery file"), std::string::npos)
      << broken.status();
  // (The test's directory is `TempDir()` + "/...": the file is named once.)
  EXPECT_EQ(broken.status().find("//"), std::string::npos) << broken.status();
  ASSERT_TRUE(broken.waitForRecording(60s));
  std::filesystem::remove_all(dir);
}
