//===- RetargetTest.cpp - targets for the executor's architecture ---------===//
//
// The studio knows the connected executor's triple (from ORC's setup
// message), marks the kernels whose target is compiled for another
// architecture (the executor would refuse their objects), and re-runs the
// pipeline with that target compiled for the executor's triple, which then
// launches: on a click, and by itself when such a kernel is launched; the
// re-run saves as a reproducer with the attribute set. Against a real executor-server on this host, with
// the sample's @compute compiled for aarch64.
//
//===----------------------------------------------------------------------===//
#include "StudioModel/Retarget.h"
#include "StudioModel/Studio.h"

#include "llvm/TargetParser/Host.h"

#include <chrono>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace executor_studio;
using namespace executor_studio::gui;
using namespace std::chrono_literals;

namespace {
const std::string kAarch64 = "aarch64-unknown-linux-gnu";

std::string sampleForAarch64() {
  std::ifstream in(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  std::string from = "module @compute attributes {catalyst.target = {}";
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos);
  if (at != std::string::npos)
    text.replace(at, from.size(),
                 "module @compute attributes {catalyst.target = {triple = \"" +
                     kAarch64 + "\"}");
  return text;
}

std::vector<double> doubles(const MemRefData &d) {
  std::vector<double> v(d.bytes.size() / 8);
  std::memcpy(v.data(), d.bytes.data(), d.bytes.size());
  return v;
}
} // namespace

TEST(Retarget, SetTargetTripleChangesOnlyThatTarget) {
  std::string source = sampleForAarch64(), result, error;
  ASSERT_TRUE(setTargetTriple(source, "s.mlir", "compute",
                              "x86_64-unknown-linux-gnu", result, error))
      << error;
  EXPECT_NE(result.find("module @compute attributes {catalyst.target = "
                        "{triple = \"x86_64-unknown-linux-gnu\"}, "
                        "catalyst.dispatch = {address = \"ADDR:PORT\"}} {"),
            std::string::npos)
      << result;
  // The rest of the text (comments included) is as it was.
  std::string expected = source;
  expected.replace(expected.find(kAarch64), kAarch64.size(),
                   "x86_64-unknown-linux-gnu");
  EXPECT_EQ(result, expected);
  EXPECT_NE(result.find("module @local attributes {catalyst.target = {}}"),
            std::string::npos);

  EXPECT_FALSE(setTargetTriple(source, "s.mlir", "nowhere", kAarch64, result, error));
  EXPECT_EQ(error, "the document has no target module @nowhere");
  EXPECT_FALSE(setTargetTriple("module {", "s.mlir", "compute", kAarch64, result, error));
  EXPECT_FALSE(error.empty());
}

TEST(Retarget, ATargetForAnotherArchitectureIsMarkedAndRerunForTheExecutor) {
  StudioOptions options;
  options.executor.serverPath = EXECUTOR_SERVER_PATH;
  Studio studio(options);
  studio.openText("aarch64.mlir", sampleForAarch64());
  ASSERT_TRUE(studio.waitForRecording(120s));
  int square = studio.findKernel("compute::square");
  int sum = studio.findKernel("local::sum");
  ASSERT_GE(square, 0);
  ASSERT_GE(sum, 0);
  EXPECT_EQ(studio.kernels()[square].triple, kAarch64);

  // Before a session nothing is known.
  EXPECT_EQ(studio.otherTripleNote(square), "");
  EXPECT_FALSE(studio.rerunForExecutorTriple(square));

  studio.executor().startLocal();
  ASSERT_TRUE(studio.executor().waitIdle(20s));
  ASSERT_EQ(studio.executor().state(), ExecutorState::Connected)
      << studio.executor().error();
  std::string host = llvm::sys::getProcessTriple();
  EXPECT_EQ(studio.executor().executorTriple(), host);
  EXPECT_EQ(studio.otherTripleNote(square),
            "compiled for " + kAarch64 + ", the executor runs " + host);
  EXPECT_EQ(studio.otherTripleNote(sum), "");

  // One click: the pipeline again, @compute compiled for the executor.
  ASSERT_TRUE(studio.rerunForExecutorTriple(square)) << studio.status();
  ASSERT_TRUE(studio.waitForRecording(120s));
  ASSERT_TRUE(studio.hasEdit()) << studio.status();
  square = studio.findKernel("compute::square");
  ASSERT_GE(square, 0);
  EXPECT_EQ(studio.kernels()[square].triple, host);
  EXPECT_EQ(studio.otherTripleNote(square), "");
  studio.inputText(square, 0) = "[1, 2, 3, 4]";
  uint64_t id = studio.launch(static_cast<size_t>(square), false);
  ASSERT_NE(id, 0u) << studio.status();
  ASSERT_TRUE(studio.executor().waitIdle(30s));
  const LaunchRecord *record = studio.executor().findLaunch(id);
  ASSERT_TRUE(record);
  ASSERT_EQ(record->status, LaunchRecord::Status::Done) << record->error;
  EXPECT_EQ(doubles(record->results[0]), (std::vector<double>{1, 4, 9, 16}));

  // The reproducer: the input with the attribute set.
  std::string reproducer = studio.reproducerText();
  EXPECT_NE(reproducer.find("module @compute attributes {catalyst.target = "
                            "{triple = \"" + host + "\"}"),
            std::string::npos)
      << reproducer;
}

// Launching a kernel compiled for another architecture does not fail: the
// studio re-runs the pipeline with its target compiled for the executor's
// triple, and launches it once that recording is there.
TEST(Retarget, LaunchingRecompilesForTheExecutorsTripleAndLaunches) {
  StudioOptions options;
  options.executor.serverPath = EXECUTOR_SERVER_PATH;
  Studio studio(options);
  studio.openText("aarch64.mlir", sampleForAarch64());
  ASSERT_TRUE(studio.waitForRecording(120s));
  studio.executor().startLocal();
  ASSERT_TRUE(studio.executor().waitIdle(20s));
  ASSERT_EQ(studio.executor().state(), ExecutorState::Connected)
      << studio.executor().error();
  std::string host = llvm::sys::getProcessTriple();
  int square = studio.findKernel("compute::square");
  ASSERT_GE(square, 0);
  ASSERT_EQ(studio.kernels()[square].triple, kAarch64);
  studio.inputText(square, 0) = "[1, 2, 3, 4]";

  // No launch yet: the re-run first, and the status says so.
  EXPECT_EQ(studio.launch(static_cast<size_t>(square), false), 0u);
  EXPECT_TRUE(studio.launchWaitsForRetarget());
  EXPECT_FALSE(studio.statusIsError()) << studio.status();
  EXPECT_EQ(studio.status(),
            "@compute::@square is compiled for " + kAarch64 +
                ", the executor runs " + host +
                ": re-running the pipeline with it compiled for " + host +
                ", then launching it...");
  EXPECT_TRUE(studio.executor().launches().empty());

  ASSERT_TRUE(studio.waitForRecording(120s));
  EXPECT_FALSE(studio.launchWaitsForRetarget());
  ASSERT_NE(studio.retargetedLaunch(), 0u) << studio.status();
  EXPECT_EQ(studio.status(),
            "re-ran the pipeline with @compute::@square compiled for " + host +
                " (the executor's triple) and launched it");
  square = studio.findKernel("compute::square");
  ASSERT_GE(square, 0);
  EXPECT_EQ(studio.kernels()[square].triple, host);
  EXPECT_TRUE(studio.hasEdit());
  ASSERT_TRUE(studio.executor().waitIdle(30s));
  const LaunchRecord *record =
      studio.executor().findLaunch(studio.retargetedLaunch());
  ASSERT_TRUE(record);
  ASSERT_EQ(record->status, LaunchRecord::Status::Done) << record->error;
  // The inputs typed before the re-run are the launch's.
  EXPECT_EQ(doubles(record->results[0]), (std::vector<double>{1, 4, 9, 16}));
  // One launch: the object compiled for aarch64 never reached the executor.
  EXPECT_EQ(studio.executor().launches().size(), 1u);
}
