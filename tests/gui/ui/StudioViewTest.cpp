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
#include "TestFiles.h"
#include "ExecutorStudio/Pipeline/OpHistory.h"

#include <imgui.h>

#include "llvm/Support/Program.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <tuple>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace executor_studio;
using namespace executor_studio::gui;
using namespace std::chrono_literals;

using executor_test::readFile;

namespace {
constexpr int kLaunchKey = 300;

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
  // The executor-server ran it (it logs a launch after its reply).
  auto logged = [&](const char *text) {
    return readFile(studio->executor().localLogPath()).find(text) !=
           std::string::npos;
  };
  EXPECT_TRUE(frameUntil([&] { return logged("launch 1 in, 1 out"); }, 10s))
      << readFile(studio->executor().localLogPath());
  EXPECT_TRUE(logged("object loaded"));

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
  // It opens at the first pass that changed something.
  int opened = passes.selected();
  ASSERT_GE(opened, 0);
  EXPECT_TRUE(passes.pass(opened).changed);
  type("j");
  EXPECT_EQ(passes.selected(), opened + 1);
  type("k");
  EXPECT_EQ(passes.selected(), opened);
  pressKey(ImGui::GetIO().KeyMap[ImGuiKey_DownArrow]);
  EXPECT_EQ(passes.selected(), opened + 1);
  pressKey(ImGui::GetIO().KeyMap[ImGuiKey_UpArrow]);
  EXPECT_EQ(passes.selected(), opened);
  type("k");
  type("k");
  EXPECT_EQ(passes.selected(), std::max(opened - 2, 0));
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
  // Typing shows the first hit at once (1/N, never 0/N).
  ASSERT_FALSE(passes.searchHits().empty());
  EXPECT_GE(passes.highlightedRow(), 0);
  EXPECT_EQ(passes.currentHit(), 0);
  ImGuiIO &io = ImGui::GetIO();
  io.KeysDown[io.KeyMap[ImGuiKey_Enter]] = true;
  frame();
  io.KeysDown[io.KeyMap[ImGuiKey_Enter]] = false;
  frame();
  // Enter goes to the next hit.
  EXPECT_EQ(passes.currentHit(), passes.searchHits().size() > 1 ? 1 : 0);
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
  int fd = executor_studio::runtime::bindLoopback(/*listen=*/true, address);
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

TEST_F(NullFrames, ADebugBuildsCrashFramesShowTheirLineInTheSource) {
  openAndRecord(CRASH_INPUT);
  // "debug build" records again, with debug info in the kernels.
  click("debug-build");
  EXPECT_TRUE(studio->debugBuild());
  // (The new recording may start a frame later: wait for its result.)
  EXPECT_TRUE(frameUntil(
      [&] {
        return !studio->recordingInProgress() &&
               studio->recordedPipeline().find("debug=true") != std::string::npos;
      },
      60s))
      << studio->recordedPipeline();
  click("start-local");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Connected; },
                         30s));
  // The session's PID, and the gdb command for it.
  EXPECT_GT(studio->executor().sessionPid(), 0);
  EXPECT_TRUE(view->widgetEnabled("copy-gdb"));
  studio->selectKernel(studio->findKernel("crash"));
  frame();
  click("launch");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Error; }, 30s));
  frame();
  const LaunchRecord &r = studio->executor().launches().back();
  ASSERT_FALSE(r.crashFrames.empty())
      << r.error << "\nthe executor's log:\n"
      << readFile(studio->executor().localLogPath());
  // The faulting op's line: the crash kernel's volatile store.
  std::string text = readFile(CRASH_INPUT);
  unsigned line = 1 + static_cast<unsigned>(std::count(
                          text.begin(), text.begin() + text.find("llvm.store volatile"), '\n'));
  EXPECT_EQ(r.crashFrames[0].line, line) << r.error;
  EXPECT_NE(r.crashFrames[0].text.find("crash at "), std::string::npos) << r.crashFrames[0].text;
  // Clicking the frame shows that line in the source view.
  frame();
  float x = 0, y = 0;
  ASSERT_TRUE(view->widgetCenter("crash-frame-0", x, y));
  EXPECT_LT(y, ImGui::GetIO().DisplaySize.y - 10) << "the frames are not in view";
  // The row (a long frame, wider than the panel) is clicked on the part of
  // it in view, inside the executor panel: its own centre is past the
  // panel's edge, where a click reaches something else.
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  ASSERT_TRUE(view->panelBounds("executor", x0, y0, x1, y1));
  EXPECT_GT(x, x0);
  EXPECT_LT(x, x1) << "the frame's row is probed where it is not drawn";
  click("crash-frame-0");
  frame();
  EXPECT_EQ(studio->passes().viewMode(), ViewMode::Source);
  EXPECT_EQ(studio->passes().highlightedRow(), static_cast<long>(line - 1));
}

// "Launch under debugger": the button, the session's PID and the gdb and
// lldb commands shown (the gdb one on the clipboard, the lldb one by its
// copy button), lldb run as copied attaches and stops in the kernel, the
// launch shows "attached", then its results.
TEST_F(NullFrames, LaunchUnderDebuggerShowsTheCommandsAndTheAttachedState) {
  std::string lldb;
  for (const char *name : {"lldb", "lldb-22"})
    if (auto found = llvm::sys::findProgramByName(name); found && lldb.empty())
      lldb = name;
  if (lldb.empty())
    GTEST_SKIP() << "no lldb";
  openAndRecord(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  click("debug-build");
  ASSERT_TRUE(frameUntil(
      [&] {
        return !studio->recordingInProgress() &&
               studio->recordedPipeline().find("debug=true") != std::string::npos;
      },
      60s));
  frame();
  // No connection needed: the launch gets a session of its own.
  EXPECT_FALSE(view->widgetEnabled("launch"));
  ASSERT_TRUE(view->widgetEnabled("launch-debugger"));
  click("launch-debugger");
  const DebugLaunch &d = studio->executor().debugLaunch();
  ASSERT_TRUE(frameUntil([&] { return d.phase == DebugLaunch::Phase::Waiting; }, 60s))
      << debugPhaseName(d.phase);
  frame();
  EXPECT_FALSE(view->widgetEnabled("launch-debugger")); // one at a time
  std::string text;
  float room = 0;
  ASSERT_TRUE(view->widgetText("debug-phase", text, room));
  EXPECT_EQ(text, "waiting for a debugger (pid " + std::to_string(d.pid) + ")");
  ASSERT_TRUE(view->widgetText("debug-gdb", text, room));
  EXPECT_EQ(text, d.gdbCommand);
  EXPECT_NE(text.find(" -p " + std::to_string(d.pid) + " "), std::string::npos) << text;
  EXPECT_NE(text.find(d.executable), std::string::npos) << text;
  ASSERT_TRUE(view->widgetText("debug-lldb", text, room));
  EXPECT_EQ(text, d.lldbCommand);
  EXPECT_EQ(text.rfind(lldb + " ", 0), 0u) << text;
  // The gdb command went to the clipboard as soon as it was shown.
  EXPECT_EQ(std::string(ImGui::GetClipboardText()), d.gdbCommand);
  click("copy-debug-lldb");
  std::string copied = ImGui::GetClipboardText();
  EXPECT_EQ(copied, d.lldbCommand);

  // lldb as copied, in batch mode: it stops in the kernel and holds it
  // there two seconds (the panel says "attached"), then detaches.
  std::string out = testing::TempDir() + "studio-lldb-" + std::to_string(d.pid) + ".out";
  std::string command = copied + " -b -o bt -o 'platform shell sleep 2' -o detach 2>&1";
  int lldbStatus = -1;
  std::thread attach([&] {
    std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out),
                                                  std::nullopt};
    lldbStatus = llvm::sys::ExecuteAndWait("/bin/sh", {"/bin/sh", "-c", command}, std::nullopt,
                                           redirects, /*SecondsToWait=*/120);
  });
  bool attached = frameUntil([&] { return d.phase == DebugLaunch::Phase::Attached; }, 60s);
  if (attached) {
    frame();
    EXPECT_TRUE(view->widgetText("debug-phase", text, room));
    EXPECT_EQ(text, "attached (pid " + std::to_string(d.pid) + ")");
  }
  bool done = frameUntil([&] { return idle(); }, 120s);
  attach.join();
  std::string lldbOut = readFile(out);
  EXPECT_TRUE(attached) << lldbOut;
  ASSERT_TRUE(done) << lldbOut;
  EXPECT_EQ(lldbStatus, 0) << lldbOut;
  EXPECT_NE(lldbOut.find("stop reason = breakpoint 1"), std::string::npos) << lldbOut;
  // The kernel's argument by its .mlir name, as executor-compile -g names it.
  EXPECT_NE(lldbOut.find("`square(x=memref<4xf64>"), std::string::npos) << lldbOut;
  EXPECT_NE(lldbOut.find("cross-compile-dispatch.mlir:"), std::string::npos) << lldbOut;
  frame();
  const LaunchRecord &r = studio->executor().launches().back();
  ASSERT_EQ(r.status, LaunchRecord::Status::Done) << r.error;
  EXPECT_EQ(doubles(r.results[0]), (std::vector<double>{1, 4, 9, 16}));
  // The debugging block goes with the launch; the button comes back.
  EXPECT_FALSE(view->widgetText("debug-phase", text, room));
  EXPECT_TRUE(view->widgetEnabled("launch-debugger"));
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

TEST_F(NullFrames, TheInspectorShowsAResultAsAHeatmapAndALinePlot) {
  openAndRecord(MATRIX_INPUT);
  ASSERT_TRUE(studio->passes().recording().succeeded) << studio->status();
  ASSERT_EQ(studio->kernels().size(), 2u);
  click("start-local");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Connected; },
                         30s))
      << studio->executor().error();
  std::string error;
  ASSERT_TRUE(studio->setInputsFromJson(0, "[{\"iota\": 0}]", error)) << error;
  studio->selectKernel(0);
  frame();
  click("launch");
  ASSERT_TRUE(frameUntil([&] { return !studio->executor().launches().empty() && idle(); }, 30s));
  ASSERT_EQ(studio->executor().launches().back().status, LaunchRecord::Status::Done)
      << studio->executor().launches().back().error;
  frame();
  EXPECT_TRUE(view->inspectorSummary().empty());
  click("inspect-out-0");
  frame();
  // 3x4 of x*x/10 for x = 0..11.
  const std::string &summary = view->inspectorSummary();
  EXPECT_NE(summary.find("memref<3x4xf64>, shape 3x4"), std::string::npos) << summary;
  EXPECT_NE(summary.find("min 0 max 12.1"), std::string::npos) << summary;
  EXPECT_NE(summary.find("0 NaN"), std::string::npos) << summary;
  float x = 0, y = 0;
  EXPECT_TRUE(view->widgetCenter("heatmap", x, y));
  EXPECT_FALSE(view->widgetCenter("line-plot", x, y));
  EXPECT_TRUE(view->widgetCenter("copy-json", x, y));
  click("copy-json");
  const char *clipboard = ImGui::GetClipboardText();
  ASSERT_TRUE(clipboard);
  EXPECT_EQ(std::string(clipboard).rfind("[[0, 0.1, 0.4, 0.9], [1.6, 2.5", 0), 0u) << clipboard;
  // The input too.
  click("inspect-in-0");
  frame();
  EXPECT_NE(view->inspectorSummary().find("min 0 max 11 mean 5.5"), std::string::npos)
      << view->inspectorSummary();

  // A rank-1 result is a line plot.
  studio->selectKernel(1);
  ASSERT_TRUE(studio->setInputsFromJson(1, "[{\"iota\": 1}]", error)) << error;
  frame();
  ASSERT_NE(studio->launch(1, false), 0u) << studio->status();
  ASSERT_TRUE(frameUntil([&] { return studio->executor().launches().size() == 2 && idle(); }, 30s));
  frame();
  click("inspect-out-0");
  frame();
  EXPECT_NE(view->inspectorSummary().find("shape 3, min 10 max 42"), std::string::npos)
      << view->inspectorSummary();
  EXPECT_TRUE(view->widgetCenter("line-plot", x, y));
  EXPECT_FALSE(view->widgetCenter("heatmap", x, y));
  // The value under the cursor: the middle of three is element 1.
  ImGuiIO &io = ImGui::GetIO();
  io.MousePos = ImVec2(x, y);
  frame();
  frame();
  EXPECT_EQ(view->inspectorHover().rfind("[1] = ", 0), 0u) << view->inspectorHover();
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  // The inspector leaves the executor panel (its launch button) in sight.
  float x0, y0, x1, y1, lx, ly;
  ASSERT_TRUE(view->inspectorBounds(x0, y0, x1, y1));
  ASSERT_TRUE(view->widgetCenter("launch", lx, ly));
  EXPECT_FALSE(lx >= x0 && lx <= x1 && ly >= y0 && ly <= y1)
      << "launch at " << lx << "," << ly << " under the inspector " << x0 << "," << y0 << " - "
      << x1 << "," << y1;
  // Two launches: the latency plot.
  EXPECT_TRUE(view->widgetCenter("latency-plot", x, y));
}

TEST_F(NullFrames, EveryControlIsInTheWindowAt1024x640) {
  ImGuiIO &io = ImGui::GetIO();
  io.DisplaySize = ImVec2(1024, 640);
  openAndRecord(MATRIX_INPUT);
  ASSERT_TRUE(studio->passes().recording().succeeded) << studio->status();
  // The executor column is folded there; its strip opens it.
  click("unfold-executor");
  frame();
  click("start-local");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Connected; },
                         30s))
      << studio->executor().error();
  studio->selectKernel(0);
  frame();
  click("launch");
  ASSERT_TRUE(frameUntil([&] { return !studio->executor().launches().empty() && idle(); }, 30s));
  // An edit, for the edit bar's Revert and Save .mlir.
  view->editAndRerun(0, *studio->passes().pass(0).ir);
  ASSERT_TRUE(frameUntil([&] { return studio->hasEdit() && idle(); }, 60s));
  frame();
  frame();
  // Each is drawn whole inside the window's width (the executor panel
  // scrolls vertically; nothing scrolls sideways).
  for (const char *name : {"next-pass", "search", "hide-loc", "compare", "revert", "save-edit",
                           "connect", "start-local", "launch", "launch-async", "launch-debugger",
                           "inspect-in-0",
                           "inspect-out-0"}) {
    float right = 0;
    ASSERT_TRUE(view->widgetRight(name, right)) << name << " was not drawn";
    EXPECT_GT(right, 0) << name << " is cut by its panel's edge";
    EXPECT_LE(right, 1024) << name << " is off the window's right edge";
  }
  // And it works there: out0 opens the inspector, once the panel is
  // scrolled down to it as a user does (its launch table is at the bottom).
  float x = 0, y = 0;
  ASSERT_TRUE(view->widgetCenter("launch-debugger", x, y));
  io.MousePos = ImVec2(x, y);
  io.MouseWheel = -5;
  frame();
  io.MouseWheel = 0;
  frame();
  click("inspect-out-0");
  frame();
  EXPECT_FALSE(view->inspectorSummary().empty());
}

TEST_F(NullFrames, AnOpsHistoryListsItAfterEachPassAndShowsTheStep) {
  studio->setPrintLocations(true);
  openAndRecord(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  PipelineModel &passes = studio->passes();
  ASSERT_TRUE(passes.recording().succeeded) << studio->status();
  std::shared_ptr<const std::string> input = passes.irAt(kInputPosition);
  TextLines lines = TextLines::prepare(*input);
  unsigned line = 0;
  for (size_t i = 0; i < lines.size() && !line; ++i)
    if (lines.line(i).find("arith.sitofp") != std::string_view::npos)
      line = static_cast<unsigned>(i + 1);
  ASSERT_GT(line, 0u);
  ASSERT_TRUE(view->openOpHistory(kInputPosition, line));
  frame();
  float x = 0, y = 0;
  ASSERT_TRUE(view->widgetCenter("op-history", x, y));
  std::vector<PipelineModel::HistoryStep> history =
      passes.opHistory(findSourceLocations(lines.line(line - 1), &lines));
  ASSERT_GE(history.size(), 3u);
  EXPECT_EQ(history[0].lines, std::vector<uint32_t>{line});
  // A click on a step selects it.
  click("history-2");
  EXPECT_EQ(passes.selected(), history[2].position);
  // No such line follows nothing; one past the end says so (issue 40).
  std::string why;
  EXPECT_FALSE(view->openOpHistory(kInputPosition, 0, &why));
  EXPECT_EQ(why, "lines are numbered from 1");
  EXPECT_FALSE(view->openOpHistory(kInputPosition, 500, &why));
  EXPECT_EQ(why, "line 500 is past the end of input (" + std::to_string(lines.size()) +
                     " lines)");
}

TEST_F(NullFrames, AnOpsHistoryFromALineOfTheFile) {
  // Line 27 of the file is an arith.addf in generic form; printed, comments,
  // blank lines and the alias are gone and it is on another line.
  studio->setPrintLocations(true);
  openAndRecord(FILE_LINES_INPUT);
  PipelineModel &passes = studio->passes();
  ASSERT_TRUE(passes.recording().succeeded) << studio->status();
  std::string why;
  ASSERT_TRUE(view->openOpHistoryAtFileLine(27, 0, &why)) << why;
  frame();
  float x = 0, y = 0;
  ASSERT_TRUE(view->widgetCenter("op-history", x, y));
  std::string file = readFile(FILE_LINES_INPUT);
  std::vector<SourceLocation> places =
      findOpsAtFileLine(*passes.irAt(kInputPosition), studio->document().name(), file, 27, 0,
                        why);
  ASSERT_EQ(places.size(), 1u) << why;
  EXPECT_EQ(places[0].line, 27u);
  std::vector<PipelineModel::HistoryStep> history = passes.opHistory(places);
  ASSERT_GE(history.size(), 3u);
  ASSERT_EQ(history[0].lines.size(), 1u);
  unsigned printedLine = history[0].lines[0];
  EXPECT_NE(printedLine, 27u) << "the printed input's line differs from the file's";
  TextLines input = TextLines::prepare(*passes.irAt(kInputPosition));
  EXPECT_NE(input.line(printedLine - 1).find("arith.addf"), std::string_view::npos)
      << input.line(printedLine - 1);
  // The printed line number typed as a line of the file is another line.
  EXPECT_FALSE(view->openOpHistoryAtFileLine(26, 0, &why));
  EXPECT_EQ(why, "line 26 of file-lines.mlir holds no op: `// Twice the element (line 27 is "
                 "its addf).`");
  // The source view's lines are the file's: its line 27 is the addf.
  passes.setViewMode(ViewMode::Source);
  frame();
  bool found = false;
  for (size_t i = 0; i < passes.rowCount(); ++i)
    if (passes.leftLineNumber(passes.row(i)) == 27)
      found = passes.leftText(passes.row(i)).find("\"arith.addf\"") != std::string_view::npos;
  EXPECT_TRUE(found);
}

TEST_F(NullFrames, PanelsResizeByDraggingTheirBorders) {
  openAndRecord(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  float x = 0, y = 0;
  ASSERT_TRUE(view->widgetCenter("split-passes", x, y));
  // Nobody dragged it: the automatic width, as wide as the names need.
  EXPECT_EQ(settings.passListWidth, 0);
  float x0, y0, x1, y1;
  ASSERT_TRUE(view->panelBounds("passes", x0, y0, x1, y1));
  float before = x1 - x0;
  ImGuiIO &io = ImGui::GetIO();
  auto drag = [&](const char *name, float dx) {
    ASSERT_TRUE(view->widgetCenter(name, x, y)) << name;
    io.MousePos = ImVec2(x, y);
    frame();
    io.MouseDown[0] = true;
    frame();
    for (int i = 0; i < 10; ++i) {
      io.MousePos.x += dx / 10;
      frame();
    }
    io.MouseDown[0] = false;
    frame();
  };
  drag("split-passes", 80);
  EXPECT_NEAR(settings.passListWidth, before + 80, 1.0f);
  float pos = 0;
  ASSERT_TRUE(view->widgetCenter("split-passes", pos, y));
  EXPECT_NEAR(pos, x + 80, 1.0f) << "the border follows the mouse";
  // Not below the minimum width.
  drag("split-passes", -1000);
  EXPECT_NEAR(settings.passListWidth, 150, 1.0f);
  // The executor panel's border, dragged left, widens it.
  ASSERT_TRUE(view->panelBounds("executor", x0, y0, x1, y1));
  float executor = x1 - x0;
  drag("split-executor", -60);
  EXPECT_NEAR(settings.executorWidth, executor + 60, 1.0f);
  // The settings file keeps the layout.
  Settings reread = Settings::fromJson(settings.toJson());
  EXPECT_EQ(reread.passListWidth, settings.passListWidth);
  EXPECT_EQ(reread.executorWidth, settings.executorWidth);
  // No diagnostics: the diagnostics panel is one line, no border to drag.
  EXPECT_FALSE(view->widgetCenter("split-diagnostics", x, y));
}

TEST_F(NullFrames, AtSmallSizesTheIrKeepsItsRoom) {
  ImGui::GetIO().DisplaySize = ImVec2(1024, 640);
  openAndRecord(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  float passes = 0, y = 0, x0, y0, x1, y1;
  ASSERT_TRUE(view->widgetCenter("split-passes", passes, y));
  // Under 1280 px the executor column is a strip at the window's edge.
  ASSERT_TRUE(view->panelBounds("executor", x0, y0, x1, y1));
  EXPECT_LE(x1 - x0, 48) << "the executor column is folded";
  EXPECT_GE(x0 - passes, 1024 * 0.66f) << "the IR view keeps two thirds of the width";
  float folded = view->irPaneWidth();
  // Its strip opens it (the IR gives way), its button folds it again; the
  // settings keep the choice.
  click("unfold-executor");
  frame();
  EXPECT_EQ(settings.executorFolded, 0);
  ASSERT_TRUE(view->panelBounds("executor", x0, y0, x1, y1));
  EXPECT_GE(x1 - x0, 230) << "the executor panel is open";
  EXPECT_TRUE(view->widgetCenter("start-local", x0, y0));
  EXPECT_LT(view->irPaneWidth(), folded);
  float executor = 0;
  ASSERT_TRUE(view->widgetCenter("split-executor", executor, y));
  ASSERT_TRUE(view->widgetCenter("split-passes", passes, y));
  EXPECT_GE(executor - passes, 1024 * 0.52f) << "the IR view keeps more than half the width";
  click("fold-executor");
  frame();
  EXPECT_EQ(settings.executorFolded, 1);
  EXPECT_EQ(view->irPaneWidth(), folded);
  EXPECT_FALSE(view->widgetCenter("start-local", x0, y0));
  EXPECT_EQ(Settings::fromJson(settings.toJson()).executorFolded, 1);
  // Folded by the user: folded at any size; at 1600 px the default is open.
  ImGui::GetIO().DisplaySize = ImVec2(1600, 960);
  frame();
  EXPECT_FALSE(view->widgetCenter("start-local", x0, y0));
  settings.executorFolded = -1;
  frame();
  EXPECT_TRUE(view->widgetCenter("start-local", x0, y0));
}

namespace {
struct Box {
  std::string name;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
std::ostream &operator<<(std::ostream &os, const Box &b) {
  return os << b.name << " (" << b.x0 << "," << b.y0 << " - " << b.x1 << "," << b.y1 << ")";
}
} // namespace

TEST_F(NullFrames, TheIrPanesGetTheWidthAndDockedPanelsOverlapNothing) {
  // At the sizes people have, with every docked panel open (an op's
  // history, a result in the inspector, a source file): each IR pane keeps
  // its width, every panel is inside the window and none lies over another.
  studio->setPrintLocations(true);
  openAndRecord(MATRIX_INPUT);
  ASSERT_TRUE(studio->passes().recording().succeeded) << studio->status();
  click("start-local");
  ASSERT_TRUE(frameUntil([&] { return studio->executor().state() == ExecutorState::Connected; },
                         30s))
      << studio->executor().error();
  studio->selectKernel(0);
  frame();
  click("launch");
  ASSERT_TRUE(frameUntil([&] { return !studio->executor().launches().empty() && idle(); }, 30s));
  frame();
  click("inspect-out-0");
  PipelineModel &passes = studio->passes();
  TextLines input = TextLines::prepare(*passes.irAt(kInputPosition));
  unsigned line = 0;
  for (size_t i = 0; i < input.size() && !line; ++i)
    if (input.line(i).find("arith.") != std::string_view::npos &&
        input.line(i).find("loc(") != std::string_view::npos)
      line = static_cast<unsigned>(i + 1);
  ASSERT_GT(line, 0u);
  ASSERT_TRUE(view->openOpHistory(kInputPosition, line));
  view->openSourceFile(MATRIX_INPUT, 3);
  // (size, the least width of an IR pane side by side)
  for (auto [width, height, paneMin] : {std::make_tuple(1024.0f, 640.0f, 330.0f),
                                        std::make_tuple(1600.0f, 960.0f, 440.0f)}) {
    ImGui::GetIO().DisplaySize = ImVec2(width, height);
    frame();
    frame();
    EXPECT_GE(view->irPaneWidth(), paneMin) << width << "x" << height;
    std::vector<Box> boxes;
    for (const char *name :
         {"passes", "ir", "executor", "op-history", "inspector", "source-file"}) {
      Box b{name};
      ASSERT_TRUE(view->panelBounds(name, b.x0, b.y0, b.x1, b.y1))
          << name << " is not drawn at " << width << "x" << height;
      EXPECT_GE(b.x0, 0) << b;
      EXPECT_GE(b.y0, 0) << b;
      EXPECT_LE(b.x1, width) << b << " is off the window at " << width;
      EXPECT_LE(b.y1, height) << b << " is off the window at " << height;
      EXPECT_GT(b.y1 - b.y0, ImGui::GetFrameHeight() * 4) << b << " has no room";
      boxes.push_back(b);
    }
    for (size_t i = 0; i < boxes.size(); ++i)
      for (size_t j = i + 1; j < boxes.size(); ++j) {
        const Box &a = boxes[i], &b = boxes[j];
        bool apart = a.x1 <= b.x0 + 0.5f || b.x1 <= a.x0 + 0.5f || a.y1 <= b.y0 + 0.5f ||
                     b.y1 <= a.y0 + 0.5f;
        EXPECT_TRUE(apart) << a << " overlaps " << b << " at " << width << "x" << height;
      }
    // The IR view is the widest panel; the pass list is no wider than its
    // names need.
    float irWidth = boxes[1].x1 - boxes[1].x0;
    for (const Box &b : boxes)
      EXPECT_LE(b.x1 - b.x0, irWidth) << b;
  }
  // The close buttons close them.
  // (A frame after each: the panels move up when one closes.)
  click("close-op-history");
  frame();
  click("close-inspector");
  frame();
  click("close-source-file");
  frame();
  float x0, y0, x1, y1;
  EXPECT_FALSE(view->panelBounds("op-history", x0, y0, x1, y1));
  EXPECT_FALSE(view->panelBounds("inspector", x0, y0, x1, y1));
  EXPECT_FALSE(view->panelBounds("source-file", x0, y0, x1, y1));
  ASSERT_TRUE(view->panelBounds("ir", x0, y0, x1, y1));
  EXPECT_GT(y1 - y0, 700) << "the IR view takes its column's height back";
}

TEST_F(NullFrames, ThePassListsNamesKeepTheirRoomAndTheOtherColumnsGiveWay) {
  openAndRecord(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  ASSERT_TRUE(studio->passes().recording().succeeded) << studio->status();
  float charWidth = ImGui::CalcTextSize("0").x;
  std::string text;
  float room = 0, x = 0, y = 0;
  // The default size: names, times and numbers.
  frame();
  ASSERT_TRUE(view->widgetText("pass-0", text, room));
  EXPECT_GE(room / charWidth, 16) << text;
  EXPECT_TRUE(view->widgetCenter("pass-ms-0", x, y)) << "the time column is shown";
  // 1024x640: the names keep their room, the list at most 27% of the
  // window (the executor column folded); the times give way when needed.
  ImGui::GetIO().DisplaySize = ImVec2(1024, 640);
  frame();
  frame();
  PipelineModel &passes = studio->passes();
  for (size_t i = 0; i < passes.passCount(); ++i) {
    ASSERT_TRUE(view->widgetText("pass-" + std::to_string(i), text, room));
    EXPECT_GE(room / charWidth, 16) << text;
    // Whole when it fits, else cut in its middle.
    StepLabel label = passes.listLabel(static_cast<int>(i));
    std::string name = label.prefix + label.name;
    if (name.size() <= static_cast<size_t>(room / charWidth))
      EXPECT_EQ(text.rfind(name, 0), 0u) << text;
    else
      EXPECT_NE(text.find("..."), std::string::npos) << text;
  }
  float x0, y0, x1, y1;
  ASSERT_TRUE(view->panelBounds("passes", x0, y0, x1, y1));
  EXPECT_LE(x1 - x0, 1024 * 0.27f + 1);
  // With the executor column open, the times give way.
  settings.executorFolded = 0;
  frame();
  frame();
  EXPECT_FALSE(view->widgetCenter("pass-ms-0", x, y)) << "the time column is hidden";
}

TEST_F(NullFrames, ATargetsRowFoldsItsStepsAndKeysStepThroughEveryStep) {
  openAndRecord(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  PipelineModel &passes = studio->passes();
  std::optional<int> parent = passes.positionNamed("cross-compile-targets");
  ASSERT_TRUE(parent);
  ASSERT_EQ(passes.targetGroups().size(), 2u);
  passes.setExpanded(*parent, true);
  passes.select(*parent);
  frame();
  frame();
  // j goes from the step through each target's steps, in order, and on
  // to the next step: the targets' rows are not stops.
  std::vector<int> expected;
  for (const PipelineModel::TargetGroup &g : passes.targetGroups())
    expected.insert(expected.end(), g.steps.begin(), g.steps.end());
  expected.push_back(*parent + 1);
  std::vector<int> visited;
  for (size_t i = 0; i < expected.size(); ++i) {
    type("j");
    visited.push_back(passes.selected());
  }
  EXPECT_EQ(visited, expected);
  for (size_t i = 0; i < expected.size(); ++i)
    type("k");
  EXPECT_EQ(passes.selected(), *parent);

  // A click on the first target's row folds its steps (they are not
  // drawn, j skips them), another unfolds them.
  std::string text;
  float room = 0;
  int firstStep = passes.targetGroups()[0].steps.front();
  ASSERT_TRUE(view->widgetText("pass-" + std::to_string(firstStep), text, room));
  click("pass-group-0");
  frame();
  EXPECT_FALSE(passes.groupExpanded(0));
  EXPECT_EQ(passes.selected(), *parent) << "a target's row is not a step";
  EXPECT_FALSE(view->widgetText("pass-" + std::to_string(firstStep), text, room));
  ASSERT_TRUE(view->widgetText("pass-group-0", text, room));
  EXPECT_EQ(text.rfind("  [+] compute", 0), 0u) << text;
  type("j");
  EXPECT_EQ(passes.selected(), passes.targetGroups()[1].steps.front());
  type("k");
  click("pass-group-0");
  frame();
  EXPECT_TRUE(passes.groupExpanded(0));
  EXPECT_TRUE(view->widgetText("pass-" + std::to_string(firstStep), text, room));
}

TEST_F(NullFrames, EditAPassAndRerunFromTheView) {
  studio->setPipelineText("builtin.module(cse,canonicalize)");
  studio->openText("f.mlir", "func.func @f(%a: i32) -> i32 {\n"
                             "  %c0 = arith.constant 0 : i32\n"
                             "  %b = arith.addi %a, %c0 : i32\n"
                             "  return %b : i32\n}\n");
  ASSERT_TRUE(frameUntil([&] { return !studio->recordingInProgress() &&
                                      studio->passes().hasRecording(); },
                         60s));
  frame();
  float x = 0, y = 0;
  EXPECT_TRUE(view->widgetCenter("edit", x, y));
  type("e");
  ASSERT_TRUE(view->widgetCenter("editor", x, y)) << "e opens the editor";
  // A broken edit: the error shows, the editor stays.
  view->editAndRerun(0, "func.func @f(%a: i32) -> i32 {\n  return %nope : i32\n}\n");
  ASSERT_TRUE(frameUntil([&] { return !studio->recordingInProgress() &&
                                      !studio->editErrors().empty(); },
                         60s));
  frame();
  EXPECT_TRUE(view->widgetCenter("editor", x, y));
  EXPECT_EQ(studio->editErrors()[0].line, 2u);
  // A good one: back to the diff, the snapshot marked edited.
  view->editAndRerun(0, "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n");
  ASSERT_TRUE(frameUntil([&] { return !studio->recordingInProgress() && studio->hasEdit(); },
                         60s));
  frame();
  frame();
  EXPECT_FALSE(view->widgetCenter("editor", x, y));
  EXPECT_TRUE(studio->passes().pass(0).edited);
  EXPECT_TRUE(view->widgetCenter("revert", x, y));
  click("revert");
  EXPECT_FALSE(studio->hasEdit());
  EXPECT_FALSE(studio->passes().pass(0).edited);
}

TEST_F(NullFrames, WithoutPrintLocTheLinkedViewLinksTheSourceAnyway) {
  // The default: no "print loc". The linked view reads the link from a
  // recording with locations made for it; the snapshots shown keep their
  // text without them.
  openAndRecord(ARM_INPUT);
  ASSERT_FALSE(studio->printLocations());
  PipelineModel &passes = studio->passes();
  ASSERT_TRUE(passes.recording().succeeded) << studio->status();
  std::optional<int> asmStep = passes.positionNamed("arm/asm");
  ASSERT_TRUE(asmStep);
  passes.select(*asmStep);
  frame();
  ASSERT_TRUE(frameUntil([&] { return !studio->locating(); }, 60s));
  frame();
  EXPECT_EQ(studio->locatingError(), "");
  float x = 0, y = 0;
  ASSERT_TRUE(view->widgetCenter("linked-source-16", x, y));
  ImGui::GetIO().MousePos = ImVec2(x, y);
  frame();
  frame();
  EXPECT_EQ(view->linkedSourceLine(), 16u);
  std::vector<unsigned> fadds = view->linkedStepLines();
  ASSERT_FALSE(fadds.empty());
  std::shared_ptr<const std::string> located = studio->locatedText(*asmStep);
  ASSERT_TRUE(located);
  TextLines lines = TextLines::prepare(*located);
  for (unsigned line : fadds)
    EXPECT_NE(lines.line(line).find("fadd"), std::string_view::npos) << lines.line(line);
  ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  // Nothing was recorded again for the view, and what it shows elsewhere
  // has no locations.
  EXPECT_FALSE(studio->printLocations());
  EXPECT_EQ(passes.irAt(0)->find(" loc("), std::string::npos);
  EXPECT_NE(studio->locatedText(0)->find(" loc("), std::string::npos);
  // A host step, "linked" ticked: its ops link to the source too.
  passes.select(0);
  frame();
  click("linked");
  ASSERT_TRUE(frameUntil([&] { return !studio->locating(); }, 60s));
  frame();
  ASSERT_TRUE(view->widgetCenter("linked-source-16", x, y));
  ImGui::GetIO().MousePos = ImVec2(x, y);
  frame();
  frame();
  EXPECT_EQ(view->linkedSourceLine(), 16u);
  EXPECT_FALSE(view->linkedStepLines().empty());
}

TEST_F(NullFrames, AtAKernelsAssemblyTheSourceIsLinkedLineByLine) {
  // arm-kernel.mlir's line 16 is its arith.addf; at arm/asm the view is the
  // source beside the assembly, not a diff.
  studio->setPrintLocations(true);
  openAndRecord(ARM_INPUT);
  PipelineModel &passes = studio->passes();
  ASSERT_TRUE(passes.recording().succeeded) << studio->status();
  std::optional<int> asmStep = passes.positionNamed("arm/asm");
  ASSERT_TRUE(asmStep);
  passes.select(*asmStep);
  frame();
  frame();
  float x = 0, y = 0;
  ASSERT_TRUE(view->widgetCenter("linked-source-16", x, y)) << "the source is beside it";
  EXPECT_EQ(view->linkedSourceLine(), 0u);
  // Hovering the source line highlights the instructions it became.
  ImGuiIO &io = ImGui::GetIO();
  io.MousePos = ImVec2(x, y);
  frame();
  frame();
  EXPECT_EQ(view->linkedSourceLine(), 16u);
  std::vector<unsigned> fadds = view->linkedStepLines();
  ASSERT_FALSE(fadds.empty());
  std::string text = *passes.irAt(*asmStep);
  TextLines lines = TextLines::prepare(text);
  bool fadd = false;
  for (unsigned line : fadds)
    fadd |= lines.line(line).find("fadd") != std::string_view::npos;
  EXPECT_TRUE(fadd);
  // Away from it, nothing is highlighted.
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  frame();
  EXPECT_EQ(view->linkedSourceLine(), 0u);
  // A click keeps it, and ] steps through its instructions, [ back.
  click("linked-source-16");
  EXPECT_EQ(view->linkedSourceLine(), 16u);
  EXPECT_EQ(view->linkedStepCursor(), static_cast<int>(fadds.front()));
  if (fadds.size() > 1) {
    type("]");
    EXPECT_EQ(view->linkedStepCursor(), static_cast<int>(fadds[1]));
    type("[");
  }
  EXPECT_EQ(view->linkedStepCursor(), static_cast<int>(fadds.front()));
  type("[");
  EXPECT_EQ(view->linkedStepCursor(), static_cast<int>(fadds.back())) << "it wraps";
  // The other way: hovering an instruction highlights its source line.
  passes.select(*asmStep - 1);
  frame();
  passes.select(*asmStep);
  frame();
  frame();
  // (The first instruction the map links, in sight at the top.)
  executor_studio::SourceLineMap map = executor_studio::mapSourceLines(
      text, executor_studio::SnapshotKind::Assembly, studio->document().name());
  size_t first = 0;
  while (first < map.sourceLinesOf.size() && map.sourceLinesOf[first].empty())
    ++first;
  ASSERT_LT(first, map.sourceLinesOf.size());
  std::string probe = "linked-step-" + std::to_string(first + 1);
  ASSERT_TRUE(view->widgetCenter(probe, x, y)) << probe;
  io.MousePos = ImVec2(x, y);
  frame();
  frame();
  EXPECT_EQ(view->linkedSourceLine(), map.sourceLinesOf[first].front());
  EXPECT_NE(view->linkedSourceLine(), 0u);
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  // A host step is a diff again unless "linked" is ticked.
  passes.select(0);
  frame();
  EXPECT_FALSE(view->widgetCenter("linked-source-16", x, y));
  click("linked");
  frame();
  EXPECT_TRUE(view->widgetCenter("linked-source-16", x, y));
}

TEST_F(NullFrames, TheGraphViewSelectsTheLineOfAClickedNodeAndMarksTheCursorsNode) {
  openAndRecord(ARM_INPUT);
  PipelineModel &passes = studio->passes();
  std::optional<int> dispatch = passes.positionNamed("dispatch-executor-targets");
  ASSERT_TRUE(dispatch);
  passes.select(*dispatch);
  frame();
  EXPECT_FALSE(studio->graph().shown());
  click("graph-toggle");
  ASSERT_TRUE(studio->graph().shown());
  frame();
  const LaidOutGraph *shown = studio->graph().graph();
  ASSERT_TRUE(shown) << studio->graph().error();
  EXPECT_EQ(shown->graph.function, "main"); // no cursor yet: the first function
  // The launch's node, labelled with its kernel and executor.
  auto launch = std::find_if(shown->graph.nodes.begin(), shown->graph.nodes.end(),
                             [](const IrGraphNode &n) { return n.opName == "executor.launch"; });
  ASSERT_NE(launch, shown->graph.nodes.end());
  EXPECT_EQ(launch->label, "executor.launch\ntwice @ 10.0.0.9:4711");
  // It opens fitted: every node is in the graph's pane at 1600x960, none
  // above its top.
  float x0, y0, x1, y1;
  ASSERT_TRUE(view->panelBounds("ir", x0, y0, x1, y1));
  for (const IrGraphNode &n : shown->graph.nodes) {
    float x = 0, y = 0;
    ASSERT_TRUE(view->widgetCenter("graph-" + n.id, x, y)) << n.id << " is not in view";
    EXPECT_GT(x, x0) << n.id;
    EXPECT_LT(x, x1) << n.id;
    EXPECT_LT(y, y1) << n.id;
  }
  // Click it: its line is selected (marked and scrolled to) in the IR view.
  click("graph-" + launch->id);
  EXPECT_EQ(studio->graph().cursorLine(), launch->line);
  ASSERT_GE(passes.highlightedRow(), 0);
  const DiffRow &row = passes.row(static_cast<size_t>(passes.highlightedRow()));
  EXPECT_EQ(passes.rightLineNumber(row), launch->line);
  EXPECT_NE(std::string(passes.rightText(row)).find("executor.launch"), std::string::npos);
  // A line marked in the IR view (a search hit) marks its node.
  view->setSearch("executor.open");
  frame();
  frame();
  std::optional<size_t> node = studio->graph().cursorNode();
  ASSERT_TRUE(node);
  EXPECT_EQ(studio->graph().graph()->graph.nodes[*node].opName, "executor.open");
  // The kernel's function at the first step (dispatch removed it): another
  // graph.
  passes.select(0);
  studio->graph().setFunction("twice");
  frame();
  ASSERT_TRUE(studio->graph().graph()) << studio->graph().error();
  EXPECT_EQ(studio->graph().function(), "arm::twice");
  EXPECT_FALSE(studio->graph().graph()->graph.clusters.empty()); // its scf.for
  // The toggle hides it again.
  click("graph-toggle");
  EXPECT_FALSE(studio->graph().shown());
}
