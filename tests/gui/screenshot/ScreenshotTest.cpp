//===- ScreenshotTest.cpp - executor-studio --screenshot under Xvfb -------===//
//
// Starts its own Xvfb (Mesa renders the OpenGL), runs the real binary and
// checks the PNG shows a whole window: its size, and many colours spread
// over the picture (text, diff colours, panels), not a blank or one-colour
// frame. One test draws the studio's window in this process on the same
// display, to read what its name cells drew at 1024x640.
//
//===----------------------------------------------------------------------===//
#include "App.h"
#include "VirtualDisplay.h"

#include "StudioModel/Settings.h"
#include "StudioModel/Studio.h"
#include "StudioUI/StudioView.h"
#include "TestFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Program.h"

#include <imgui.h>
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace executor_studio;
using namespace executor_studio::gui;
using namespace std::chrono_literals;

using executor_test::readFile;

namespace {
struct Result {
  int exitCode = -1;
  std::string output;
};

class Screenshot : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    display = new VirtualDisplay();
    std::string error;
    if (!display->start(error, 1920, 1080))
      startError = error;
  }
  static void TearDownTestSuite() {
    delete display;
    display = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(startError.empty()) << startError;
    dir = ::testing::TempDir() + "/studio-screenshot-" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }

  /// This process's environment with `set` (NAME=VALUE) instead of the
  /// variables of those names and without the variables named in `unset`.
  static std::vector<std::string> environment(const std::vector<std::string> &set,
                                              const std::vector<std::string> &unset = {}) {
    std::vector<std::string> all = set;
    for (char **variable = environ; *variable; ++variable) {
      llvm::StringRef name = llvm::StringRef(*variable).split('=').first;
      auto named = [&](llvm::StringRef entry) { return entry.split('=').first == name; };
      if (llvm::none_of(set, named) && !llvm::is_contained(unset, name))
        all.push_back(*variable);
    }
    return all;
  }

  /// Runs executor-studio with `args` in `env`, its standard output and
  /// error into one file, for at most five minutes.
  Result run(const std::vector<std::string> &args, const std::vector<std::string> &env) {
    std::string out = dir + "/output.txt";
    std::filesystem::remove(out); // ExecuteAndWait does not truncate it
    std::vector<llvm::StringRef> argv = {"executor-studio"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<llvm::StringRef> envp(env.begin(), env.end());
    std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(out),
                                                  llvm::StringRef(out)};
    std::string error;
    Result result;
    result.exitCode = llvm::sys::ExecuteAndWait(EXECUTOR_STUDIO_PATH, argv, envp, redirects,
                                                /*SecondsToWait=*/300, /*MemoryLimit=*/0, &error);
    result.output = readFile(out) + error;
    return result;
  }

  /// executor-studio on the virtual display.
  Result studio(const std::vector<std::string> &args) {
    return run(args, environment({"DISPLAY=" + display->display(), "LIBGL_ALWAYS_SOFTWARE=1",
                                  "XDG_CONFIG_HOME=" + dir + "/config",
                                  "XDG_STATE_HOME=" + dir + "/state"}));
  }

  /// Checks the picture is a drawn window, not an empty frame.
  void expectWindow(const std::string &png) {
    int w = 0, h = 0, channels = 0;
    unsigned char *pixels = stbi_load(png.c_str(), &w, &h, &channels, 4);
    ASSERT_TRUE(pixels) << png << ": " << stbi_failure_reason();
    EXPECT_EQ(w, 1600);
    EXPECT_EQ(h, 960);
    std::set<uint32_t> colours;
    std::map<uint32_t, size_t> counts;
    // Colours in each quarter of the window: every panel drew something.
    std::set<uint32_t> quarter[4];
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const unsigned char *p = pixels + (static_cast<size_t>(y) * w + x) * 4;
        uint32_t c = (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3);
        colours.insert(c);
        ++counts[c];
        quarter[(y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1)].insert(c);
      }
    stbi_image_free(pixels);
    size_t most = 0;
    for (auto &[c, n] : counts)
      most = std::max(most, n);
    EXPECT_GT(colours.size(), 50u) << "too few colours: not a drawn window";
    EXPECT_LT(most, static_cast<size_t>(w) * h * 9 / 10) << "one colour fills the picture";
    for (int q = 0; q < 4; ++q)
      EXPECT_GT(quarter[q].size(), 8u) << "quarter " << q << " is empty";
  }

  /// The studio's own window drawn in this process on the virtual display
  /// at `width` x `height`, the studio binary its recording worker, with
  /// the sample that compiles two targets recorded (locations printed).
  void openInProcess(int width, int height) {
    ::setenv("DISPLAY", display->display().c_str(), 1);
    ::setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
    std::string error;
    window = GlWindow::create(width, height, "executor-studio", error);
    ASSERT_TRUE(window) << error;
    setupStyle(settings.fontSize);
    StudioOptions options;
    options.workerExecutable = EXECUTOR_STUDIO_PATH; // --record-worker
    inProcess = std::make_unique<Studio>(options);
    // The view first: it applies its settings to the studio.
    view = std::make_unique<StudioView>(*inProcess, settings);
    inProcess->setPrintLocations(true);
    ASSERT_TRUE(inProcess->open(SAMPLES_DIR "/cross-compile-dispatch.mlir"))
        << inProcess->status();
    ASSERT_TRUE(inProcess->waitForRecording(300s));
    ASSERT_TRUE(inProcess->passes().recording().succeeded) << inProcess->status();
  }

  /// Draws four frames and writes the last to `png`.
  void drawFrames(const std::string &png, int width, int height) {
    std::vector<unsigned char> rgba;
    int w = 0, h = 0;
    for (int i = 0; i < 4; ++i) {
      window->waitEvents(0);
      window->beginFrame();
      view->draw();
      window->endFrame(i == 3 ? &rgba : nullptr, &w, &h);
    }
    EXPECT_EQ(w, width);
    EXPECT_EQ(h, height);
    std::string error;
    ASSERT_TRUE(writePng(png, w, h, rgba, error)) << error;
  }

  /// At `width` x `height`, after convert-arith-to-llvm: an op's history
  /// and the source file docked under the IR, drawn; the IR panes at least
  /// `paneMin` wide, nothing over anything (expectDockedLayout).
  void drawDocked(int width, int height, float paneMin);

  static VirtualDisplay *display;
  static std::string startError;
  std::string dir;
  std::unique_ptr<GlWindow> window;
  Settings settings;
  std::unique_ptr<Studio> inProcess;
  std::unique_ptr<StudioView> view;
};
VirtualDisplay *Screenshot::display = nullptr;
std::string Screenshot::startError;
} // namespace

TEST_F(Screenshot, PipelineDiff) {
  std::string png = dir + "/diff.png";
  Result run = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png, "--pass", "3"});
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("passes"), std::string::npos) << run.output;
  expectWindow(png);
}

TEST_F(Screenshot, ExecutorPanelAfterALaunch) {
  std::string png = dir + "/launch.png";
  Result run = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png, "--launch",
                       "compute::square", "--inputs", "[[1, 2, 3, 4]]"});
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("@compute::@square: done"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("[1, 4, 9, 16]"), std::string::npos) << run.output;
  expectWindow(png);
}

TEST_F(Screenshot, ADocumentThatDoesNotParse) {
  std::string png = dir + "/bad.png";
  Result run = studio({BAD_INPUT, "--screenshot", png});
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("does not parse"), std::string::npos) << run.output;
  expectWindow(png);
}

TEST_F(Screenshot, ACrashingKernelStillGivesAPicture) {
  std::string png = dir + "/crash.png";
  Result run = studio({CRASH_INPUT, "--screenshot", png, "--launch", "crash"});
  EXPECT_EQ(run.exitCode, 3) << run.output;
  EXPECT_NE(run.output.find("lost the session"), std::string::npos) << run.output;
  expectWindow(png);
}

TEST_F(Screenshot, ACrashInADebugBuildShowsItsFrames) {
  std::string png = dir + "/crash-frames.png";
  Result run = studio({CRASH_INPUT, "--screenshot", png, "--debug-build", "--launch", "crash"});
  EXPECT_EQ(run.exitCode, 3) << run.output;
  // The launch table's frames: the kernel at its .mlir line.
  EXPECT_NE(run.output.find("#0 crash at "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("crash.mlir:"), std::string::npos) << run.output;
  expectWindow(png);
}

TEST_F(Screenshot, ALaunchUnderADebuggerShowsTheCommands) {
  std::string png = dir + "/launch-under-debugger.png";
  Result run = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png,
                       "--debug-build", "--launch", "square", "--under-debugger"});
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("waiting for a debugger (pid "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("gdb -q "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("-o 'breakpoint set --name square' -o continue"), std::string::npos)
      << run.output;
  expectWindow(png);
}

TEST_F(Screenshot, BadArgumentsAreRefused) {
  EXPECT_EQ(studio({"--pass", "0"}).exitCode, 2);
  EXPECT_EQ(studio({"--launch", "square"}).exitCode, 2);
  EXPECT_EQ(studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot",
                    dir + "/x.png", "--under-debugger"})
                .exitCode,
            2);
  Result help = studio({"--help"});
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.output.find("--screenshot"), std::string::npos);
  Result missing = studio({"/no/such/file.mlir", "--screenshot", dir + "/x.png"});
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_NE(missing.output.find("/no/such/file.mlir"), std::string::npos) << missing.output;
}

TEST_F(Screenshot, TheWindowSavesItsLayoutWhenItIsClosed) {
  // The interactive window, ended by SIGTERM as by closing it.
  std::string config = dir + "/config";
  std::vector<std::string> variables = environment(
      {"DISPLAY=" + display->display(), "XDG_CONFIG_HOME=" + config, "LIBGL_ALWAYS_SOFTWARE=1"});
  std::vector<llvm::StringRef> env(variables.begin(), variables.end());
  std::string error;
  llvm::sys::ProcessInfo studio = llvm::sys::ExecuteNoWait(
      EXECUTOR_STUDIO_PATH,
      {"executor-studio", SAMPLES_DIR "/cross-compile-dispatch.mlir", "--size", "1000x700"}, env,
      /*Redirects=*/{}, /*MemoryLimit=*/0, &error);
  ASSERT_GT(studio.Pid, 0) << error;
  pid_t pid = studio.Pid;
  // Closed once it catches SIGTERM (its handler saves the layout): a
  // start slower than usual (a sanitizer build) is waited for.
  auto catchesTerm = [&] {
    std::string status = readFile("/proc/" + std::to_string(pid) + "/status");
    size_t at = status.find("SigCgt:");
    if (at == std::string::npos)
      return false;
    unsigned long long mask = std::strtoull(status.c_str() + at + 7, nullptr, 16);
    return ((mask >> (SIGTERM - 1)) & 1) != 0;
  };
  for (int i = 0; i < 600 && !catchesTerm(); ++i)
    usleep(100 * 1000);
  sleep(1); // its first frames
  kill(pid, SIGTERM);
  llvm::sys::ProcessInfo ended =
      llvm::sys::Wait(studio, /*SecondsToWait=*/120u, &error);
  ASSERT_EQ(ended.Pid, pid) << error;
  ASSERT_NE(ended.ReturnCode, -2) << "ended by a signal: " << error;
  EXPECT_EQ(ended.ReturnCode, 0) << error;
  std::string settings = readFile(config + "/executor-studio/settings.json");
  EXPECT_NE(settings.find("\"width\": 1000"), std::string::npos) << settings;
  EXPECT_NE(settings.find("cross-compile-dispatch.mlir"), std::string::npos) << settings;
  EXPECT_NE(settings.find("passListWidth"), std::string::npos) << settings;
}

TEST_F(Screenshot, ArgumentsThatCannotApplyWriteNoPicture) {
  std::string png = dir + "/none.png";
  Result pass = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png, "--pass", "999"});
  EXPECT_EQ(pass.exitCode, 2) << pass.output;
  EXPECT_NE(pass.output.find("--pass 999: the recording has"), std::string::npos)
      << pass.output;
  EXPECT_FALSE(std::ifstream(png).good());
  Result inputs = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png, "--launch",
                            "square", "--inputs", "[[1, 2, 3, 4], [5]]"});
  EXPECT_EQ(inputs.exitCode, 2) << inputs.output;
  EXPECT_NE(inputs.output.find("takes 1 argument(s), --inputs gives 2"), std::string::npos)
      << inputs.output;
  EXPECT_FALSE(std::ifstream(png).good());
  // Issue 40: each says what is wrong. A name that is no pass: the nearest.
  Result name = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png,
                        "--pass", "cross-compile"});
  EXPECT_EQ(name.exitCode, 2) << name.output;
  EXPECT_NE(name.output.find("executor-studio: --pass cross-compile: the recording has no "
                             "pass cross-compile (it has "),
            std::string::npos)
      << name.output;
  EXPECT_NE(name.output.find(" passes, numbered from 1; a target's own steps are "
                             "TARGET/STEP); did you mean 'cross-compile-targets'?\n"),
            std::string::npos)
      << name.output;
  EXPECT_FALSE(std::ifstream(png).good());
  // A line past the end of the input.
  Result history = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png,
                           "--history", "500"});
  EXPECT_EQ(history.exitCode, 2) << history.output;
  EXPECT_NE(history.output.find("executor-studio: --history 500: line 500 is past the end of "
                                "cross-compile-dispatch.mlir ("),
            std::string::npos)
      << history.output;
  EXPECT_EQ(history.output.find("names no location"), std::string::npos) << history.output;
  EXPECT_FALSE(std::ifstream(png).good());
  // A pipeline that is none: its error, and no picture.
  Result pipeline = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png,
                            "--pipeline", "builtin.module(cross-compile)"});
  EXPECT_EQ(pipeline.exitCode, 2) << pipeline.output;
  EXPECT_NE(pipeline.output.find(
                "executor-studio: --pipeline: invalid pipeline \"builtin.module(cross-compile)\": "
                "'cross-compile' is not a registered pass or pass pipeline (did you mean "
                "'cross-compile-targets'?)\n"),
            std::string::npos)
      << pipeline.output;
  EXPECT_FALSE(std::ifstream(png).good());
}

TEST_F(Screenshot, SettingsApplyInScreenshotMode) {
  std::string settings = dir + "/settings.json";
  std::ofstream(settings) << "{\"window\": {\"width\": 1024, \"height\": 640},"
                             " \"view\": {\"mode\": \"unified\"}}\n";
  std::string png = dir + "/settings.png";
  Result run = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png, "--settings",
                       settings});
  ASSERT_EQ(run.exitCode, 0) << run.output;
  int w = 0, h = 0, channels = 0;
  unsigned char *pixels = stbi_load(png.c_str(), &w, &h, &channels, 4);
  ASSERT_TRUE(pixels);
  stbi_image_free(pixels);
  EXPECT_EQ(w, 1024);
  EXPECT_EQ(h, 640);
}

TEST_F(Screenshot, AKernelsOwnAssemblyByName) {
  // The AArch64 kernel's assembly, a nested step of cross-compile-targets.
  std::string png = dir + "/asm.png";
  Result run = studio({ARM_INPUT, "--screenshot", png, "--pass", "arm/asm"});
  ASSERT_EQ(run.exitCode, 0) << run.output;
  expectWindow(png);
  Result full = studio({ARM_INPUT, "--screenshot", png, "--pass",
                        "cross-compile-targets/arm/convert-func-to-llvm"});
  EXPECT_EQ(full.exitCode, 0) << full.output;
  Result none = studio({ARM_INPUT, "--screenshot", png, "--pass", "arm/no-such-step"});
  EXPECT_EQ(none.exitCode, 2) << none.output;
  EXPECT_NE(none.output.find("--pass arm/no-such-step: the recording has no pass"),
            std::string::npos)
      << none.output;
}

TEST_F(Screenshot, PrintDiffWritesTheDiffOfAPassWithoutAWindow) {
  // No DISPLAY needed: the diff goes to stdout.
  auto printDiff = [&](const std::vector<std::string> &args) {
    return run(args, environment({}, {"DISPLAY"}));
  };
  // A host pass by number (as the pass list numbers it) and by name.
  Result dispatch = printDiff({"--print-diff", "4", ARM_INPUT});
  ASSERT_EQ(dispatch.exitCode, 0) << dispatch.output;
  EXPECT_EQ(dispatch.output.rfind("--- 3: cross-compile-targets\n+++ 4: dispatch-executor-targets\n", 0),
            0u)
      << dispatch.output;
  // The structural diff: the launch keeps its result's name, so the return
  // that uses it is unchanged; the session is a new value with a new name.
  EXPECT_NE(dispatch.output.find("\n+    %1 = executor.open(\"10.0.0.9:4711\")"),
            std::string::npos)
      << dispatch.output;
  EXPECT_NE(dispatch.output.find("\n-    %0 = catalyst.launch_kernel @arm::@twice"),
            std::string::npos)
      << dispatch.output;
  EXPECT_NE(dispatch.output.find("\n+    %0 = executor.launch %1(\"twice\""), std::string::npos)
      << dispatch.output;
  EXPECT_NE(dispatch.output.find("\n     return %0 : memref<4xf64>\n"), std::string::npos)
      << dispatch.output;
  // The line diff: the texts as printed.
  Result byName = printDiff({"--print-diff", "dispatch-executor-targets", "--line-diff", ARM_INPUT});
  EXPECT_EQ(byName.exitCode, 0) << byName.output;
  EXPECT_EQ(byName.output.rfind("--- 3: cross-compile-targets\n", 0), 0u) << byName.output;
  EXPECT_NE(byName.output.find("\n+    %0 = executor.open(\"10.0.0.9:4711\")"),
            std::string::npos)
      << byName.output;
  EXPECT_NE(byName.output.find("\n-    return %0 : memref<4xf64>\n"), std::string::npos)
      << byName.output;

  // A target's own step: its assembly, after its optimised LLVM IR.
  Result assembly = printDiff({"--print-diff", "arm/asm", ARM_INPUT});
  ASSERT_EQ(assembly.exitCode, 0) << assembly.output;
  EXPECT_NE(assembly.output.find("+++ "), std::string::npos);
  EXPECT_NE(assembly.output.find(": cross-compile-targets/arm/asm\n"), std::string::npos)
      << assembly.output;
  EXPECT_NE(assembly.output.find("\n+twice:\n"), std::string::npos) << assembly.output;
  // (tabs expanded to columns of 8, as the studio draws them)
  EXPECT_NE(assembly.output.find("\n+        fadd    v"), std::string::npos) << assembly.output;
  Result lowered =
      printDiff({"--print-diff", "cross-compile-targets/arm/convert-func-to-llvm", ARM_INPUT});
  ASSERT_EQ(lowered.exitCode, 0) << lowered.output;
  EXPECT_NE(lowered.output.find("-  func.func @twice"), std::string::npos) << lowered.output;
  EXPECT_NE(lowered.output.find("+  llvm.func @twice"), std::string::npos) << lowered.output;

  Result unknown = printDiff({"--print-diff", "nosuch", ARM_INPUT});
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.output.find("the recording has no pass nosuch"), std::string::npos)
      << unknown.output;
  EXPECT_EQ(printDiff({"--line-diff", ARM_INPUT}).exitCode, 2);
  EXPECT_EQ(printDiff({"--print-diff", "4"}).exitCode, 2);
}

TEST_F(Screenshot, AKeptEditIsOfferedAndRestoredAtTheNextStart) {
  std::string input = dir + "/program.mlir", edit = dir + "/edit.mlir";
  std::ofstream(input) << "func.func @f(%a: i32) -> i32 {\n"
                          "  %b = arith.addi %a, %a : i32\n"
                          "  %c = arith.addi %a, %a : i32\n"
                          "  %d = arith.muli %b, %c : i32\n"
                          "  return %d : i32\n}\n";
  // The IR after cse, edited: a subtraction instead.
  std::ofstream(edit) << "module {\n  func.func @f(%arg0: i32) -> i32 {\n"
                         "    %0 = arith.subi %arg0, %arg0 : i32\n"
                         "    %1 = arith.muli %0, %0 : i32\n"
                         "    return %1 : i32\n  }\n}\n";
  std::string png = dir + "/recovery.png";
  const std::string pipeline = "builtin.module(cse,canonicalize)";
  Result edited = studio({input, "--pipeline", pipeline, "--screenshot", png, "--pass", "1",
                          "--edit", edit});
  ASSERT_EQ(edited.exitCode, 0) << edited.output;
  // Kept in $XDG_STATE_HOME/executor-studio/recovery, readable by the user only.
  std::vector<std::filesystem::path> kept;
  for (const auto &entry :
       std::filesystem::directory_iterator(dir + "/state/executor-studio/recovery"))
    kept.push_back(entry.path());
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_NE(readFile(kept[0]).find("arith.subi %arg0, %arg0"), std::string::npos);
  EXPECT_EQ(std::filesystem::status(kept[0]).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);

  // The next start offers it...
  Result offered = studio({input, "--pipeline", pipeline, "--screenshot", png});
  ASSERT_EQ(offered.exitCode, 0) << offered.output;
  std::string document = std::filesystem::path(input).lexically_normal().string();
  EXPECT_NE(offered.output.find("an edit of pass 1 of " + document + " was kept at "),
            std::string::npos)
      << offered.output;
  EXPECT_NE(offered.output.find("--restore-edit restores it"), std::string::npos);
  expectWindow(png);
  // ... and restores it: the passes after it re-run on the edit.
  Result restored =
      studio({input, "--pipeline", pipeline, "--screenshot", png, "--restore-edit"});
  ASSERT_EQ(restored.exitCode, 0) << restored.output;
  EXPECT_NE(restored.output.find("restored the edit of pass 1: re-ran 1 pass after the "
                                 "edit of pass 1"),
            std::string::npos)
      << restored.output;
  expectWindow(png);

  // Nothing kept for another document.
  std::string other = dir + "/other.mlir";
  std::ofstream(other) << "module {}\n";
  Result none = studio({other, "--screenshot", png, "--restore-edit"});
  EXPECT_EQ(none.exitCode, 2) << none.output;
  EXPECT_NE(none.output.find("--restore-edit: no edit of " + other + " is kept in"),
            std::string::npos)
      << none.output;
}

TEST_F(Screenshot, PassNamesAndAnOpsHistoryAreReadableAt1024x640) {
  // The studio's own frames in this process, on the virtual display (as a
  // laptop's split screen): what each name cell drew and its room.
  ASSERT_NO_FATAL_FAILURE(openInProcess(1024, 640));
  PipelineModel &passes = inProcess->passes();
  // A kernel's own step selected (its target's steps shown), and the
  // history of one of its ops.
  std::optional<int> lowered = passes.positionNamed("compute/convert-func-to-llvm");
  ASSERT_TRUE(lowered);
  passes.select(*lowered);
  TextLines input = TextLines::prepare(*passes.irAt(kInputPosition));
  unsigned line = 0;
  for (size_t i = 0; i < input.size() && !line; ++i)
    if (input.line(i).find("arith.mulf %in, %in") != std::string_view::npos)
      line = static_cast<unsigned>(i + 1);
  ASSERT_GT(line, 0u);
  ASSERT_TRUE(view->openOpHistory(kInputPosition, line));
  ASSERT_NO_FATAL_FAILURE(drawFrames(dir + "/narrow.png", 1024, 640));
  float charWidth = ImGui::CalcTextSize("0").x;

  // Each name as drawn: whole, or its start and its end around "...",
  // inside its column; no two alike among `seen` (`scope` tells apart rows
  // that may be: two targets' steps of the same name).
  auto readable = [&](const std::string &probe, const std::string &name,
                      std::set<std::string> &seen, const std::string &scope = "") {
    std::string text;
    float room = 0;
    ASSERT_TRUE(view->widgetText(probe, text, room)) << probe << " was not drawn";
    EXPECT_GE(room / charWidth, 16) << probe << " (" << name << "): its column is "
                                    << room / charWidth << " characters wide";
    EXPECT_LE(ImGui::CalcTextSize(text.c_str()).x, room + 0.5f)
        << probe << ": '" << text << "' is cut by its column";
    bool whole = text.find(name) != std::string::npos;
    bool elided = text.find("...") != std::string::npos &&
                  text.find(name.substr(0, 3)) != std::string::npos &&
                  text.find(name.substr(name.size() - std::min<size_t>(6, name.size()))) !=
                      std::string::npos;
    EXPECT_TRUE(whole || elided) << probe << ": '" << text << "' for " << name;
    EXPECT_TRUE(seen.insert(scope + text).second)
        << probe << ": '" << text << "' is drawn twice";
  };
  // The pass list: a target's own steps by their own names under its row.
  std::set<std::string> passRows;
  size_t nested = 0, groups = 0;
  for (const PipelineModel::ListRow &row : passes.listRows()) {
    if (row.isGroup()) {
      ++groups;
      readable("pass-group-" + std::to_string(row.group),
               passes.targetGroups()[row.group].target, passRows);
      continue;
    }
    nested += passes.isNested(row.position);
    readable("pass-" + std::to_string(row.position), passes.stepName(row.position), passRows,
             std::to_string(passes.groupOf(row.position)) + ":");
  }
  EXPECT_GT(nested, 10u) << "the kernel's own steps are listed";
  EXPECT_EQ(groups, 2u) << "a row for each target";

  // The op's history: a target's own steps by their own names (`asm`),
  // under their target's row.
  std::vector<PipelineModel::HistoryStep> history =
      passes.opHistory(findSourceLocations(input.line(line - 1), &input));
  ASSERT_GT(history.size(), 10u);
  std::set<std::string> historyRows;
  size_t nestedRows = 0;
  std::set<int> historyGroups;
  for (size_t i = 0; i < history.size(); ++i) {
    std::string probe = "history-" + std::to_string(i);
    int group = passes.groupOf(history[i].position);
    readable(probe, passes.stepName(history[i].position), historyRows,
             std::to_string(group) + ":");
    std::string text;
    float room = 0;
    ASSERT_TRUE(view->widgetText(probe, text, room));
    if (passes.isNested(history[i].position)) {
      ++nestedRows;
      EXPECT_EQ(text.find("cross-compile-targets"), std::string::npos) << text;
      const std::string &target = passes.targetGroups()[group].target;
      EXPECT_EQ(text.find(target + "/"), std::string::npos)
          << "'" << text << "' repeats its target's name";
      EXPECT_EQ(text.rfind("    " + passes.stepName(history[i].position).substr(0, 3), 0), 0u)
          << "'" << text << "' is not indented under its target's row";
      // Its target's row above it.
      if (historyGroups.insert(group).second) {
        ASSERT_TRUE(view->widgetText("history-group-" + std::to_string(group), text, room))
            << target << "'s row";
        EXPECT_EQ(text.rfind("  " + target, 0), 0u) << text;
      }
    }
  }
  EXPECT_GT(nestedRows, 5u);
  EXPECT_FALSE(historyGroups.empty());
}

TEST_F(Screenshot, KernelStepsHangUnderTheirTargetAndNoPassNameIsCutAt1600x960) {
  // The default window: every name in the pass list whole, a target's own
  // steps by their own names under its row (`compute  x86_64-...`).
  ASSERT_NO_FATAL_FAILURE(openInProcess(1600, 960));
  PipelineModel &passes = inProcess->passes();
  std::optional<int> lowered = passes.positionNamed("compute/convert-func-to-llvm");
  ASSERT_TRUE(lowered);
  passes.select(*lowered);
  ASSERT_NO_FATAL_FAILURE(drawFrames(dir + "/tree.png", 1600, 960));

  std::vector<PipelineModel::ListRow> rows = passes.listRows();
  int group = -1;
  size_t groupRows = 0, nestedRows = 0, drawn = 0;
  for (const PipelineModel::ListRow &row : rows) {
    std::string probe = row.isGroup() ? "pass-group-" + std::to_string(row.group)
                                      : "pass-" + std::to_string(row.position);
    std::string text;
    float room = 0;
    // (Rows scrolled out of the list are laid out and probed too.)
    ASSERT_TRUE(view->widgetText(probe, text, room)) << probe << " was not drawn";
    ++drawn;
    EXPECT_EQ(text.find("..."), std::string::npos) << probe << ": '" << text << "' is cut";
    EXPECT_LE(ImGui::CalcTextSize(text.c_str()).x, room + 0.5f)
        << probe << ": '" << text << "' is cut by its column";
    if (row.isGroup()) {
      ++groupRows;
      group = row.group;
      const PipelineModel::TargetGroup &g = passes.targetGroups()[row.group];
      EXPECT_EQ(passes.pass(g.parent).pass, "cross-compile-targets");
      EXPECT_EQ(text, "  [-] " + g.target + "  " + g.triple) << probe;
      EXPECT_FALSE(g.triple.empty()) << g.target;
      continue;
    }
    StepLabel label = passes.listLabel(row.position);
    EXPECT_EQ(text, label.full()) << probe;
    if (passes.isNested(row.position)) {
      ++nestedRows;
      EXPECT_EQ(passes.groupOf(row.position), group)
          << probe << ": '" << text << "' is not under its target's row";
      const std::string &target = passes.targetGroups()[group].target;
      EXPECT_EQ(text.rfind("    ", 0), 0u) << "'" << text << "' is not indented";
      EXPECT_EQ(text.find(target + "/"), std::string::npos)
          << "'" << text << "' repeats its target's name";
      EXPECT_EQ(text.find(passes.pass(row.position).pass.substr(target.size() + 1)), 4u)
          << text;
    } else {
      group = -1;
    }
  }
  EXPECT_GT(drawn, 20u);
  EXPECT_GE(groupRows, 1u);
  EXPECT_GT(nestedRows, 10u);
  EXPECT_EQ(passes.targetGroups().size(), 2u) << "compute and local";
  // The host passes around them: whole, the time column beside them.
  std::string text;
  float room = 0, x = 0, y = 0;
  for (const char *name : {"cross-compile-targets", "dispatch-executor-targets",
                           "convert-executor-to-llvm"}) {
    std::optional<int> step = passes.positionNamed(name);
    ASSERT_TRUE(step) << name;
    ASSERT_TRUE(view->widgetText("pass-" + std::to_string(*step), text, room)) << name;
    EXPECT_NE(text.find(name), std::string::npos) << "'" << text << "' for " << name;
    EXPECT_TRUE(view->widgetCenter("pass-ms-" + std::to_string(*step), x, y))
        << "the time column is shown";
  }
}

TEST_F(Screenshot, HistoryTakesALineOfTheFile) {
  // Line 27 of the file is its arith.addf (comments, blank lines, an alias
  // and the generic form put it elsewhere in the printed input).
  std::string png = dir + "/history.png";
  Result line = studio({FILE_LINES_INPUT, "--screenshot", png, "--history", "27"});
  EXPECT_EQ(line.exitCode, 0) << line.output;
  ASSERT_NO_FATAL_FAILURE(expectWindow(png));
  Result column = studio({FILE_LINES_INPUT, "--screenshot", png, "--history", "27:14"});
  EXPECT_EQ(column.exitCode, 0) << column.output;
  // Line 26 is a comment of the file (in the printed input it is an op).
  std::filesystem::remove(png);
  Result comment = studio({FILE_LINES_INPUT, "--screenshot", png, "--history", "26"});
  EXPECT_EQ(comment.exitCode, 2) << comment.output;
  EXPECT_NE(comment.output.find("executor-studio: --history 26: line 26 of file-lines.mlir "
                                "holds no op: `// Twice the element (line 27 is its addf).`"),
            std::string::npos)
      << comment.output;
  EXPECT_FALSE(std::ifstream(png).good());
  for (const char *bad : {"0", "27:", "27:0", "x", "27:x"}) {
    Result refused = studio({FILE_LINES_INPUT, "--screenshot", png, "--history", bad});
    EXPECT_EQ(refused.exitCode, 2) << bad << ": " << refused.output;
    EXPECT_NE(refused.output.find("--history takes LINE or LINE:COL of the file, numbered from 1"),
              std::string::npos)
        << bad << ": " << refused.output;
  }
}

namespace {
/// The docked panels at `width` x `height`: an op's history and a source
/// file under the IR view, which keeps its width; nothing over anything.
void expectDockedLayout(StudioView &view, float width, float height, float paneMin) {
  EXPECT_GE(view.irPaneWidth(), paneMin) << width << "x" << height;
  // (A figure, not a test: the width each IR pane got.)
  std::printf("%.0fx%.0f: an IR pane side by side is %.0f px\n", width, height,
              view.irPaneWidth());
  struct Box {
    const char *name;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  };
  std::vector<Box> boxes;
  for (const char *name : {"passes", "ir", "executor", "op-history", "source-file"}) {
    Box b{name};
    ASSERT_TRUE(view.panelBounds(name, b.x0, b.y0, b.x1, b.y1)) << name;
    EXPECT_LE(b.x1, width) << name;
    EXPECT_LE(b.y1, height) << name;
    boxes.push_back(b);
  }
  for (size_t i = 0; i < boxes.size(); ++i)
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      const Box &a = boxes[i], &b = boxes[j];
      EXPECT_TRUE(a.x1 <= b.x0 + 0.5f || b.x1 <= a.x0 + 0.5f || a.y1 <= b.y0 + 0.5f ||
                  b.y1 <= a.y0 + 0.5f)
          << a.name << " overlaps " << b.name;
    }
}

void Screenshot::drawDocked(int width, int height, float paneMin) {
  ASSERT_NO_FATAL_FAILURE(openInProcess(width, height));
  PipelineModel &passes = inProcess->passes();
  std::optional<int> pass = passes.positionNamed("convert-arith-to-llvm");
  ASSERT_TRUE(pass);
  passes.select(*pass);
  std::string why;
  ASSERT_TRUE(view->openOpHistoryAtFileLine(42, 0, &why)) << why;
  ASSERT_TRUE(view->openSourceFile(SAMPLES_DIR "/cross-compile-dispatch.mlir", 42));
  std::string size = std::to_string(width) + "x" + std::to_string(height);
  ASSERT_NO_FATAL_FAILURE(drawFrames(dir + "/docked-" + size + ".png", width, height));
  expectDockedLayout(*view, width, height, paneMin);
}
} // namespace

TEST_F(Screenshot, DockedPanelsLeaveTheIrItsWidthAt1024x640) {
  ASSERT_NO_FATAL_FAILURE(drawDocked(1024, 640, 320));
}

TEST_F(Screenshot, DockedPanelsLeaveTheIrItsWidthAt1600x960) {
  ASSERT_NO_FATAL_FAILURE(drawDocked(1600, 960, 440));
}

TEST_F(Screenshot, TheSourceLinkedToAKernelsAssemblyAtBothSizes) {
  // At arm/asm the IR view is the source beside the assembly; --history 16
  // highlights the addf's line and the instructions it became.
  for (const char *size : {"1024x640", "1600x960"}) {
    std::string png = dir + "/linked-" + size + ".png";
    Result r = studio({ARM_INPUT, "--screenshot", png, "--size", size, "--pass", "arm/asm",
                       "--history", "16"});
    ASSERT_EQ(r.exitCode, 0) << size << ": " << r.output;
    int w = 0, h = 0, channels = 0;
    unsigned char *pixels = stbi_load(png.c_str(), &w, &h, &channels, 4);
    ASSERT_TRUE(pixels) << png;
    EXPECT_EQ(std::to_string(w) + "x" + std::to_string(h), size);
    // The linked colours: many pixels of the highlighted line's colour
    // (the first of the palette at its bright alpha over the panel).
    std::set<uint32_t> colours;
    for (int i = 0; i < w * h; ++i) {
      const unsigned char *p = pixels + static_cast<size_t>(i) * 4;
      colours.insert((p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3));
    }
    stbi_image_free(pixels);
    EXPECT_GT(colours.size(), 50u) << size;
  }
  // Without --history (which prints locations): the default recording,
  // the link read from one with locations made for the view.
  std::string png = dir + "/linked-default.png";
  Result r = studio({ARM_INPUT, "--screenshot", png, "--pass", "arm/asm"});
  ASSERT_EQ(r.exitCode, 0) << r.output;
  expectWindow(png);
}

TEST_F(Screenshot, TheGraphViewDrawsTheFunctionAtBothSizes) {
  // The command line: the Graph view of @main after dispatch-executor-targets
  // below the IR, at a laptop's split screen and at a desktop's size.
  for (auto [width, height] : {std::pair{1024, 640}, std::pair{1600, 960}}) {
    std::string size = std::to_string(width) + "x" + std::to_string(height);
    std::string png = dir + "/graph-" + size + ".png";
    Result run = studio({SAMPLES_DIR "/cross-compile-dispatch.mlir", "--screenshot", png,
                         "--size", size, "--pass", "dispatch-executor-targets", "--show-graph",
                         "main"});
    ASSERT_EQ(run.exitCode, 0) << run.output;
    int w = 0, h = 0, channels = 0;
    unsigned char *pixels = stbi_load(png.c_str(), &w, &h, &channels, 4);
    ASSERT_TRUE(pixels) << png;
    EXPECT_EQ(w, width);
    EXPECT_EQ(h, height);
    // The nodes' boxes are drawn in their colours (GraphView's nodeFill)
    // in the lower half, where the graph is. At 1600x960 the graph opens
    // fitted, the launches' boxes in sight; at 1024x640 its pane is too
    // low for that to be read, and it opens at its top.
    size_t launchPixels = 0, nodePixels = 0;
    for (int y = h / 2; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const unsigned char *p = pixels + (static_cast<size_t>(y) * w + x) * 4;
        launchPixels += p[0] == 110 && p[1] == 76 && p[2] == 20;
        nodePixels += p[0] == 48 && p[1] == 54 && p[2] == 66;
      }
    stbi_image_free(pixels);
    EXPECT_GT(nodePixels, 500u) << size << ": no node drawn";
    if (width == 1600)
      EXPECT_GT(launchPixels, 500u) << size << ": no launch node drawn";
  }

  // In this process: every node of the graph is where a click finds it.
  ASSERT_NO_FATAL_FAILURE(openInProcess(1024, 640));
  PipelineModel &passes = inProcess->passes();
  std::optional<int> dispatch = passes.positionNamed("dispatch-executor-targets");
  ASSERT_TRUE(dispatch);
  passes.select(*dispatch);
  inProcess->graph().setShown(true);
  inProcess->graph().setFunction("main");
  ASSERT_NO_FATAL_FAILURE(drawFrames(dir + "/graph-in-process.png", 1024, 640));
  const LaidOutGraph *graph = inProcess->graph().graph();
  ASSERT_TRUE(graph) << inProcess->graph().error();
  size_t launches = 0;
  for (const IrGraphNode &node : graph->graph.nodes)
    if (node.isLaunch && node.opName == "executor.launch") {
      ++launches;
      EXPECT_NE(node.label.find(" @ "), std::string::npos) << node.label;
    }
  EXPECT_EQ(launches, 2u); // @compute::@square and @scale; @local::@sum runs here
  float x = 0, y = 0;
  ASSERT_TRUE(view->widgetCenter("graph-op0", x, y)) << "the first node is drawn";
  EXPECT_GT(y, 640 * 0.4f) << "below the IR";
  EXPECT_LT(y, 640.0f);
}
