//===- RetargetTest.cpp - targets for the executor's architecture ---------===//
//
// The studio knows the connected executor's triple (from ORC's setup
// message), marks the kernels whose target is compiled for another
// architecture (the executor refuses their objects, and the launch says
// why), and re-runs the pipeline with that target compiled for the
// executor's triple, which then launches; the re-run saves as a reproducer
// with the attribute set. Against a real executor-server on this host, with
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

  // Launched anyway, the executor refuses the object before linking it.
  uint64_t refused = studio.launch(static_cast<size_t>(square), false);
  ASSERT_NE(refused, 0u) << studio.status();
  ASSERT_TRUE(studio.executor().waitIdle(30s));
  const LaunchRecord *record = studio.executor().findLaunch(refused);
  ASSERT_TRUE(record);
  EXPECT_EQ(record->status, LaunchRecord::Status::Failed);
  EXPECT_NE(record->error.find("compute.o is " + kAarch64.substr(0, 8)),
            std::string::npos)
      << record->error;
  EXPECT_NE(record->error.find("runs " + host + ": set catalyst.target = "
                               "{triple = \"" + host + "\"} on @compute"),
            std::string::npos)
      << record->error;

  // One click: the pipeline again, @compute compiled for the executor.
  ASSERT_TRUE(studio.rerunForExecutorTriple(square)) << studio.status();
  ASSERT_TRUE(studio.waitForRecording(120s));
  ASSERT_TRUE(studio.hasEdit()) << studio.status();
  square = studio.findKernel("compute::square");
  ASSERT_GE(square, 0);
  EXPECT_EQ(studio.kernels()[square].triple, host);
  EXPECT_EQ(studio.otherTripleNote(square), "");
  if (studio.executor().state() != ExecutorState::Connected) {
    // The refusal did not end the session; reconnect only if it did.
    studio.executor().startLocal();
    ASSERT_TRUE(studio.executor().waitIdle(20s));
  }
  studio.inputText(square, 0) = "[1, 2, 3, 4]";
  uint64_t id = studio.launch(static_cast<size_t>(square), false);
  ASSERT_NE(id, 0u) << studio.status();
  ASSERT_TRUE(studio.executor().waitIdle(30s));
  record = studio.executor().findLaunch(id);
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
