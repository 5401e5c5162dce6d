//===- StudioViewTest.cpp - ImGui frames on a null backend ----------------===//
//
// Real Dear ImGui frames without a window: the font atlas is built, nothing
// is rasterised. The tests move the mouse onto widgets and press them, type
// keys, and check what happened, against a real executor-server.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Socket.h"
#include "StudioModel/Settings.h"
#include "StudioModel/Studio.h"
#include "StudioUI/StudioView.h"

#include <imgui.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <sstream>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace executor_studio::gui;
using namespace std::chrono_literals;

namespace {
constexpr int kLaunchKey = 300;

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<double> doubles(const MemRefData &d) {
  std::vector<double> v(d.bytes.size() / 8);
  std::memcpy(v.data(), d.bytes.data(), d.bytes.size());
  return v;
}

class NullFrames : public ::testing::Test {
protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1600, 960);
    io.IniFilename = nullptr;
    io.DeltaTime = 1.0f / 60;
    // What a platform backend does: map ImGui's keys to io.KeysDown slots.
    for (int k = 0; k < ImGuiKey_COUNT; ++k)
      io.KeyMap[k] = 400 + k;
    setupStyle(14);
    unsigned char *pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(1)));
    StudioOptions options;
    options.executor.serverPath = EXECUTOR_SERVER_PATH;
    options.executor.connectTimeout = 1000ms;
    options.executor.handshakeTimeout = 1500ms;
    studio = std::make_unique<Studio>(options);
    view = std::make_unique<StudioView>(*studio, settings);
    view->setLaunchKey(kLaunchKey);
  }
  void TearDown() override {
    view.reset();
    studio.reset();
    ImGui::DestroyContext();
  }

  /// One frame; returns how long it took.
  double frame() {
    auto start = std::chrono::steady_clock::now();
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    view->draw();
    ImGui::Render();
    ++frames;
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  }
  /// Frames until `done` or `timeout`; the worst frame time in `worst`.
  bool frameUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout,
                  double *worst = nullptr) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      double ms = frame();
      if (worst)
        *worst = std::max(*worst, ms);
      if (done())
        return true;
      std::this_thread::sleep_for(2ms);
    }
    return false;
  }
  /// Moves the mouse onto `name` and clicks it, as a user does.
  void click(const std::string &name) {
    float x = 0, y = 0;
    ASSERT_TRUE(view->widgetCenter(name, x, y)) << name << " was not drawn";
    ImGuiIO &io = ImGui::GetIO();
    io.MousePos = ImVec2(x, y);
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  }
  void pressKey(int key) {
    ImGuiIO &io = ImGui::GetIO();
    io.KeysDown[key] = true;
    frame();
    io.KeysDown[key] = false;
    frame();
  }
  void type(const std::string &text) {
    for (char c : text) {
      ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(c));
      frame();
    }
  }
  void openAndRecord(const std::string &path) {
    ASSERT_TRUE(studio->open(path)) << studio->status();
    ASSERT_TRUE(frameUntil([&] { return !studio->recordingInProgress() &&
                                        studio->passes().hasRecording(); },
                           60s));
    frame();
  }
  bool idle() { return !studio->executor().busy(); }

  Settings settings;
  std::unique_ptr<Studio> studio;
  std::unique_ptr<StudioView> view;
  int frames = 0;
};
} // namespace

TEST_F(NullFrames, PressingLaunchRunsTheKernelOnARealExecutor) {
  openAndRecord(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  ASSERT_EQ(studio->kernels().size(), 3u);
  EXPECT_FALSE(view->widgetEnabled("launch")); // not connected yet
  click("start-local");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Connected; },
                         30s))
      << studio->executor().error();
  frame();
  EXPECT_TRUE(view->widgetEnabled("launch"));
  click("launch");
  ASSERT_TRUE(frameUntil([&] { return !studio->executor().launches().empty() && idle(); }, 30s));
  const LaunchRecord &r = studio->executor().launches().front();
  ASSERT_EQ(r.status, LaunchRecord::Status::Done) << r.error;
  EXPECT_EQ(r.label, "@compute::@square");
  EXPECT_EQ(doubles(r.results[0]), (std::vector<double>{1, 4, 9, 16}));
  EXPECT_GT(r.latencyMs, 0.0);
  // The executor-server ran it.
  std::string log = readFile(studio->executor().localLogPath());
  EXPECT_NE(log.find("object loaded"), std::string::npos) << log;
  EXPECT_NE(log.find("launch 1 in, 1 out"), std::string::npos) << log;

  // Launch async, and F5.
  click("launch-async");
  pressKey(kLaunchKey);
  ASSERT_TRUE(frameUntil([&] { return studio->executor().launches().size() == 3 && idle(); }, 30s));
  for (const LaunchRecord &l : studio->executor().launches())
    EXPECT_EQ(l.status, LaunchRecord::Status::Done) << l.error;
  EXPECT_TRUE(studio->executor().launches()[1].async);
  frame();
}

TEST_F(NullFrames, KeysStepSearchAndScroll) {
  openAndRecord(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  PipelineModel &passes = studio->passes();
  ASSERT_GE(passes.passCount(), 5u);
  EXPECT_EQ(passes.selected(), 0);
  type("j");
  EXPECT_EQ(passes.selected(), 1);
  type("k");
  EXPECT_EQ(passes.selected(), 0);
  pressKey(ImGui::GetIO().KeyMap[ImGuiKey_DownArrow]);
  EXPECT_EQ(passes.selected(), 1);
  pressKey(ImGui::GetIO().KeyMap[ImGuiKey_UpArrow]);
  EXPECT_EQ(passes.selected(), 0);
  type("n"); // next pass that changed the IR
  EXPECT_TRUE(passes.pass(passes.selected()).changed);
  int changed = passes.selected();
  type("n");
  EXPECT_GT(passes.selected(), changed);
  // The toolbar button steps too.
  int before = passes.selected();
  click("next-pass");
  EXPECT_EQ(passes.selected(), before + 1);
  // '/' focuses the search field; what is typed then searches.
  type("/");
  frame();
  type("memref");
  EXPECT_EQ(passes.search(), "memref");
  ImGuiIO &io = ImGui::GetIO();
  io.KeysDown[io.KeyMap[ImGuiKey_Enter]] = true;
  frame();
  io.KeysDown[io.KeyMap[ImGuiKey_Enter]] = false;
  frame();
  ASSERT_FALSE(passes.searchHits().empty());
  EXPECT_GE(passes.highlightedRow(), 0); // Enter went to the first hit
  EXPECT_EQ(passes.currentHit(), 0);
  // Keys do not step while typing in a field.
  int selected = passes.selected();
  type("j");
  EXPECT_EQ(passes.selected(), selected);
}

TEST_F(NullFrames, UnreachableExecutorShowsAnErrorAndFramesKeepComing) {
  openAndRecord(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  // A listener that never answers: the session handshake waits for its
  // time-out on the worker thread while frames keep coming.
  std::string address;
  int fd = executor_runtime::bindLoopback(/*listen=*/true, address);
  ASSERT_GE(fd, 0);
  auto start = std::chrono::steady_clock::now();
  studio->executor().connect(address);
  double worst = 0;
  int before = frames;
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Error; },
                         20s, &worst));
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  close(fd);
  std::printf("unreachable executor: error after %.1f s, %d frames, worst frame %.1f ms: %s\n",
              waited, frames - before, worst, studio->executor().error().c_str());
  EXPECT_GT(frames - before, 10);
  EXPECT_LT(worst, 250.0) << "a frame blocked on the connect";
  EXPECT_NE(studio->executor().error().find(address), std::string::npos)
      << studio->executor().error();
  EXPECT_FALSE(view->widgetEnabled("launch"));
  pressKey(kLaunchKey); // refused, not crashed
  EXPECT_TRUE(studio->executor().launches().empty());
  // And a local executor still works afterwards.
  click("start-local");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Connected; },
                         30s))
      << studio->executor().error();
}

TEST_F(NullFrames, ACrashingKernelShowsAnErrorAndTheSessionReopens) {
  openAndRecord(CRASH_INPUT);
  int crash = studio->findKernel("crash");
  ASSERT_GE(crash, 0);
  click("start-local");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Connected; },
                         30s));
  studio->selectKernel(crash);
  frame();
  click("launch");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Error; }, 30s));
  EXPECT_NE(studio->executor().error().find("lost the session"), std::string::npos);
  frame();
  click("start-local"); // the executor runs on: a new session
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Connected; },
                         30s));
  studio->selectKernel(studio->findKernel("twice"));
  frame();
  click("launch");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().launches().size() == 2 && idle(); }, 30s));
  const LaunchRecord &r = studio->executor().launches().back();
  ASSERT_EQ(r.status, LaunchRecord::Status::Done) << r.error;
  EXPECT_EQ(doubles(r.results[0]), (std::vector<double>{2, 4, 6, 8}));
}

TEST_F(NullFrames, ADocumentThatDoesNotParseShowsItsDiagnostics) {
  openAndRecord(BAD_INPUT);
  for (int i = 0; i < 3; ++i)
    frame();
  EXPECT_EQ(studio->passes().viewMode(), ViewMode::Source);
  EXPECT_EQ(studio->passes().errorCount(), 1u);
  EXPECT_TRUE(studio->statusIsError());
  // Keys that step do nothing harmful.
  type("jnk");
  pressKey(kLaunchKey);
  EXPECT_TRUE(studio->executor().launches().empty());
}

TEST_F(NullFrames, OnlyTheVisibleRowsOfAHugeSnapshotAreDrawn) {
  std::string text = "func.func @big(%a: i32) -> i32 {\n";
  for (int i = 0; i < 50000; ++i)
    text += "  %x" + std::to_string(i) + " = arith.addi %a, %a : i32\n";
  text += "  return %a : i32\n}\n";
  studio->setPipelineText("builtin.module(canonicalize)");
  studio->openText("big.mlir", text);
  ASSERT_TRUE(frameUntil([&] { return studio->passes().hasRecording() &&
                                      !studio->recordingInProgress(); },
                         120s));
  frame();
  EXPECT_GT(studio->passes().rowCount(), 50000u);
  EXPECT_GT(view->irRowsDrawn(), 10);
  EXPECT_LT(view->irRowsDrawn(), 200);
  view->scrollIrBy(100000);
  frame();
  frame();
  EXPECT_GT(view->irScroll(), 0.0f);
  EXPECT_LT(view->irRowsDrawn(), 200);
}
