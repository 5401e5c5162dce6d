//===- App.cpp - executor-studio's GLFW + OpenGL3 glue --------------------===//
#include "App.h"
#include "VirtualDisplay.h"

#include "StudioModel/Settings.h"
#include "StudioModel/Studio.h"
#include "StudioUI/StudioView.h"

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <GL/gl.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/stat.h>

namespace executor_studio::gui {

//===----------------------------------------------------------------------===//
// GlWindow
//===----------------------------------------------------------------------===//

namespace {
std::string glfwError;
void onGlfwError(int code, const char *description) {
  glfwError = std::string(description) + " (GLFW error " + std::to_string(code) + ")";
}
int openWindows = 0;
} // namespace

std::unique_ptr<GlWindow> GlWindow::create(int width, int height, const std::string &title,
                                           std::string &error) {
  glfwSetErrorCallback(onGlfwError);
  if (openWindows == 0 && !glfwInit()) {
    error = "cannot start GLFW: " + (glfwError.empty() ? std::string("no display?") : glfwError);
    const char *display = std::getenv("DISPLAY");
    if (!display || !*display)
      error += "; DISPLAY is not set (run under Xvfb: xvfb-run, or Xvfb :99 & DISPLAY=:99)";
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  std::unique_ptr<GlWindow> w(new GlWindow());
  w->window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!w->window) {
    error = "cannot open a window with OpenGL 3: " + glfwError;
    if (openWindows == 0)
      glfwTerminate();
    return nullptr;
  }
  ++openWindows;
  glfwMakeContextCurrent(w->window);
  glfwSwapInterval(0);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO &io = ImGui::GetIO();
  io.IniFilename = nullptr; // the layout lives in the settings JSON
  ImGui_ImplGlfw_InitForOpenGL(w->window, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  return w;
}

GlWindow::~GlWindow() {
  if (!window)
    return;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  if (--openWindows == 0)
    glfwTerminate();
}

bool GlWindow::shouldClose() const { return glfwWindowShouldClose(window); }

void GlWindow::waitEvents(double timeoutSeconds) {
  if (timeoutSeconds <= 0)
    glfwPollEvents();
  else
    glfwWaitEventsTimeout(timeoutSeconds);
}

void GlWindow::beginFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void GlWindow::endFrame(std::vector<unsigned char> *rgba, int *width, int *height) {
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(0.10f, 0.11f, 0.13f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (rgba) {
    rgba->assign(static_cast<size_t>(w) * h * 4, 0);
    std::vector<unsigned char> bottomUp(rgba->size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
    for (int y = 0; y < h; ++y)
      std::memcpy(rgba->data() + static_cast<size_t>(y) * w * 4,
                  bottomUp.data() + static_cast<size_t>(h - 1 - y) * w * 4,
                  static_cast<size_t>(w) * 4);
    for (size_t i = 3; i < rgba->size(); i += 4)
      (*rgba)[i] = 255;
    if (width)
      *width = w;
    if (height)
      *height = h;
  }
  glfwSwapBuffers(window);
}

void GlWindow::finish() { glFinish(); }

void GlWindow::setTitle(const std::string &title) { glfwSetWindowTitle(window, title.c_str()); }

void GlWindow::position(int &x, int &y) const { glfwGetWindowPos(window, &x, &y); }

void GlWindow::size(int &width, int &height) const { glfwGetWindowSize(window, &width, &height); }

void GlWindow::move(int x, int y) { glfwSetWindowPos(window, x, y); }

//===----------------------------------------------------------------------===//
// The command line
//===----------------------------------------------------------------------===//

namespace {
const char *kUsage =
    "usage: executor-studio [FILE.mlir] [options]\n"
    "\n"
    "Steps through the pipeline recorded on FILE pass by pass, with a diff of\n"
    "what each pass changed, and launches its cross-compiled kernels on an\n"
    "executor-server.\n"
    "\n"
    "  --pipeline TEXT       record TEXT (builtin.module(cse,canonicalize)) instead\n"
    "                        of the default pipeline\n"
    "  --settings FILE       window and layout settings (default\n"
    "                        $XDG_CONFIG_HOME/executor-studio/settings.json)\n"
    "  --size WxH            the window size\n"
    "  --version             print the version and exit\n"
    "\n"
    "Headless (under Xvfb with Mesa):\n"
    "  --screenshot OUT.png  render a few frames, write them as a PNG and exit\n"
    "  --pass N|NAME         select pass N (1-based, as the pass list numbers them)\n"
    "                        or by name: cse, compute/asm (a target's own step)\n"
    "  --view MODE           side-by-side, unified or source\n"
    "  --search TEXT         search the IR view for TEXT\n"
    "  --edit FILE           replace the IR after --pass N with FILE and re-run the\n"
    "                        passes after it (shows the edited re-run)\n"
    "  --inspect             open the result inspector on --launch's first result\n"
    "  --launch ENTRY        launch kernel ENTRY (square, compute::square or\n"
    "                        @compute::@square) before the screenshot\n"
    "  --inputs JSON         its inputs: a JSON array, one entry per argument, each\n"
    "                        an array, a number or a pattern ({\"iota\": 1})\n"
    "  --executor HOST:PORT  the executor for --launch (default: start a local one)\n"
    "  --frames N            frames to render before the screenshot (default 4)\n"
    "\n"
    "Without a window:\n"
    "  --print-diff PASS     write the diff the studio shows for PASS (a number or\n"
    "                        a name, as --pass) to stdout and exit\n"
    "  --line-diff           with --print-diff: the plain line diff\n";

bool parseSize(const std::string &text, int &w, int &h) {
  return std::sscanf(text.c_str(), "%dx%d", &w, &h) == 2 && w >= 320 && h >= 240 &&
         w <= 8192 && h <= 8192;
}
} // namespace

bool parseArguments(int argc, char **argv, AppOptions &options, std::string &message) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool hasValue = false;
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasValue = true;
    }
    auto next = [&](std::string &out) {
      if (hasValue) {
        out = value;
        return true;
      }
      if (i + 1 >= argc) {
        message = arg + " needs a value\n\n" + kUsage;
        return false;
      }
      out = argv[++i];
      return true;
    };
    std::string text;
    if (arg == "--help" || arg == "-h") {
      message = kUsage;
      return false;
    } else if (arg == "--screenshot") {
      if (!next(options.screenshot))
        return false;
    } else if (arg == "--pass") {
      if (!next(text))
        return false;
      bool number = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return c >= '0' && c <= '9';
      });
      if (!number && !text.empty() && text[0] != '-') {
        options.passName = text; // (resolved against the recording)
      } else {
        options.pass = std::atoi(text.c_str());
        if (options.pass < 1) {
          message = "--pass takes a pass number from 1 or a pass name";
          return false;
        }
      }
    } else if (arg == "--print-diff") {
      if (!next(options.printDiff))
        return false;
    } else if (arg == "--line-diff") {
      options.lineDiff = true;
    } else if (arg == "--launch") {
      if (!next(options.launch))
        return false;
    } else if (arg == "--inputs") {
      if (!next(options.inputs))
        return false;
    } else if (arg == "--executor") {
      if (!next(options.executor))
        return false;
    } else if (arg == "--pipeline") {
      if (!next(options.pipeline))
        return false;
    } else if (arg == "--view") {
      if (!next(options.view))
        return false;
      if (!viewModeNamed(options.view)) {
        message = "--view takes side-by-side, unified or source";
        return false;
      }
    } else if (arg == "--search") {
      if (!next(options.search))
        return false;
    } else if (arg == "--edit") {
      if (!next(options.editFile))
        return false;
    } else if (arg == "--inspect") {
      options.inspect = true;
    } else if (arg == "--settings") {
      if (!next(options.settingsPath))
        return false;
    } else if (arg == "--size") {
      if (!next(text))
        return false;
      if (!parseSize(text, options.width, options.height)) {
        message = "--size takes WxH (at least 320x240)";
        return false;
      }
    } else if (arg == "--frames") {
      if (!next(text))
        return false;
      options.frames = std::atoi(text.c_str());
    } else if (!arg.empty() && arg[0] == '-') {
      message = "unknown option " + arg + "\n\n" + kUsage;
      return false;
    } else if (options.file.empty()) {
      options.file = arg;
    } else {
      message = "one file at a time (" + options.file + ", " + arg + ")";
      return false;
    }
  }
  if (!options.inputs.empty() && options.launch.empty()) {
    message = "--inputs goes with --launch";
    return false;
  }
  if (!options.printDiff.empty() && (!options.screenshot.empty() || options.file.empty())) {
    message = "--print-diff PASS goes with a FILE and without --screenshot";
    return false;
  }
  if (options.lineDiff && options.printDiff.empty()) {
    message = "--line-diff goes with --print-diff";
    return false;
  }
  if (!options.editFile.empty() && (options.pass < 1 || options.screenshot.empty())) {
    message = "--edit goes with --pass N and --screenshot";
    return false;
  }
  if (options.inspect && options.launch.empty()) {
    message = "--inspect goes with --launch";
    return false;
  }
  if (!options.launch.empty() && options.screenshot.empty()) {
    message = "--launch goes with --screenshot (in the window, press Launch or F5)";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

namespace {
/// SIGINT, SIGTERM and SIGHUP end the loop like closing the window does, so
/// the settings are saved and the local executor is stopped.
volatile std::sig_atomic_t stopRequested = 0;
void requestStop(int) { stopRequested = 1; }

std::string title(const Studio &studio) {
  if (!studio.document().isOpen())
    return "executor-studio";
  return studio.document().name() + " - executor-studio";
}

/// --launch: connects, launches, waits; prints what happened. False when
/// the launch did not succeed.
bool launchForScreenshot(Studio &studio, const AppOptions &options) {
  using namespace std::chrono_literals;
  ExecutorModel &executor = studio.executor();
  if (options.executor.empty())
    executor.startLocal();
  else
    executor.connect(options.executor);
  executor.waitIdle(30s);
  if (executor.state() != ExecutorState::Connected) {
    std::fprintf(stderr, "executor-studio: executor %s: %s\n", stateName(executor.state()),
                 executor.error().c_str());
    return false;
  }
  int kernel = studio.findKernel(options.launch);
  if (kernel < 0) {
    std::string names;
    for (const Kernel &k : studio.kernels())
      names += " " + k.qualifiedName();
    std::fprintf(stderr, "executor-studio: no kernel %s (the document launches:%s)\n",
                 options.launch.c_str(), names.empty() ? " none" : names.c_str());
    return false;
  }
  studio.selectKernel(kernel);
  std::string error;
  if (!options.inputs.empty() &&
      !studio.setInputsFromJson(static_cast<size_t>(kernel), options.inputs, error)) {
    std::fprintf(stderr, "executor-studio: %s\n", error.c_str());
    return false;
  }
  uint64_t id = studio.launch(static_cast<size_t>(kernel), false);
  if (id == 0) {
    std::fprintf(stderr, "executor-studio: %s\n", studio.status().c_str());
    return false;
  }
  executor.waitIdle(60s);
  const LaunchRecord *r = executor.findLaunch(id);
  if (!r || r->status != LaunchRecord::Status::Done) {
    std::fprintf(stderr, "executor-studio: launch of %s failed: %s\n", options.launch.c_str(),
                 r ? r->error.c_str() : "no record");
    return false;
  }
  std::printf("launch #%llu %s: done in %.3f ms:", static_cast<unsigned long long>(id),
              r->label.c_str(), r->latencyMs);
  for (size_t i = 0; i < r->results.size(); ++i)
    std::printf(" %s", formatValues(r->results[i], r->resultTypes[i].element).c_str());
  std::printf("\n");
  return true;
}
/// The position `--pass` or `--print-diff` names (a 1-based number or a
/// name), or a message why there is none.
std::optional<int> namedPosition(const PipelineModel &passes, const std::string &name,
                                 std::string &error) {
  if (std::optional<int> position = passes.positionNamed(name))
    return position;
  error = "the recording has no pass " + name + " (it has " +
          std::to_string(passes.passCount()) +
          " passes, numbered from 1; a target's own steps are TARGET/STEP)";
  return std::nullopt;
}

/// --print-diff: records FILE, writes the selected pass's diff and exits.
int printDiff(const AppOptions &options) {
  using namespace std::chrono_literals;
  Studio studio;
  if (!options.pipeline.empty())
    studio.setPipelineText(options.pipeline);
  if (!studio.open(options.file)) {
    std::fprintf(stderr, "executor-studio: %s\n", studio.status().c_str());
    return 1;
  }
  if (!studio.waitForRecording(300s)) {
    std::fprintf(stderr, "executor-studio: the recording did not finish\n");
    return 1;
  }
  PipelineModel &passes = studio.passes();
  std::string error;
  std::optional<int> position = namedPosition(passes, options.printDiff, error);
  if (!position) {
    std::fprintf(stderr, "executor-studio: --print-diff %s: %s\n", options.printDiff.c_str(),
                 error.c_str());
    return 2;
  }
  passes.select(*position);
  const DiffView &view = passes.diffView();
  std::string text = formatUnified(*view.left, *view.right, view.diff,
                                   passes.positionName(view.leftPosition),
                                   passes.positionName(view.rightPosition));
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}
} // namespace

int runApp(const AppOptions &options) {
  using namespace std::chrono_literals;
  if (!options.printDiff.empty())
    return printDiff(options);
  bool headless = !options.screenshot.empty();
  std::string settingsPath =
      options.settingsPath.empty() ? Settings::defaultPath() : options.settingsPath;
  std::string settingsError;
  Settings settings = Settings::load(settingsPath, &settingsError);
  if (!settingsError.empty())
    std::fprintf(stderr, "executor-studio: %s: %s (using the defaults)\n", settingsPath.c_str(),
                 settingsError.c_str());
  if (headless && options.settingsPath.empty()) {
    // Screenshots look the same whatever the user's settings say (unless
    // --settings names the file to use).
    Settings defaults;
    defaults.viewMode = settings.viewMode;
    settings = defaults;
    settings.viewMode = "side-by-side";
  }
  if (!options.view.empty())
    settings.viewMode = options.view;
  bool fixedSize = headless && options.settingsPath.empty();
  int width = options.width ? options.width : fixedSize ? 1600 : settings.windowWidth;
  int height = options.height ? options.height : fixedSize ? 960 : settings.windowHeight;

  std::string error;
  // Headless without a display: a private Xvfb for the frames.
  VirtualDisplay virtualDisplay;
  const char *display = std::getenv("DISPLAY");
  if (headless && (!display || !*display)) {
    if (!virtualDisplay.start(error, std::max(width, 1920), std::max(height, 1080))) {
      std::fprintf(stderr, "executor-studio: no DISPLAY and %s\n", error.c_str());
      return 1;
    }
    ::setenv("DISPLAY", virtualDisplay.display().c_str(), 1);
  }
  std::unique_ptr<GlWindow> window = GlWindow::create(width, height, "executor-studio", error);
  if (!window) {
    std::fprintf(stderr, "executor-studio: %s\n", error.c_str());
    return 1;
  }
  if (!headless && settings.windowX >= 0 && settings.windowY >= 0)
    window->move(settings.windowX, settings.windowY);
  setupStyle(settings.fontSize);

  Studio studio;
  if (!options.pipeline.empty())
    studio.setPipelineText(options.pipeline);
  else if (!headless)
    studio.setPipelineText(settings.pipeline);
  std::string file = options.file;
  if (file.empty() && !headless && !settings.lastFile.empty()) {
    struct stat st {};
    if (::stat(settings.lastFile.c_str(), &st) == 0)
      file = settings.lastFile;
  }
  if (!file.empty()) {
    if (!studio.open(file)) {
      std::fprintf(stderr, "executor-studio: %s\n", studio.status().c_str());
      if (headless)
        return 1;
    } else if (!headless) {
      settings.lastFile = studio.document().path();
    }
  }
  StudioView view(studio, settings);
  view.setLaunchKey(GLFW_KEY_F5);

  if (headless) {
    studio.waitForRecording(300s);
    if (!options.passName.empty()) {
      std::optional<int> position = namedPosition(studio.passes(), options.passName, error);
      if (!position) {
        std::fprintf(stderr, "executor-studio: --pass %s: %s\n", options.passName.c_str(),
                     error.c_str());
        return 2;
      }
      studio.passes().select(*position);
    }
    if (options.pass > 0) {
      if (options.pass > static_cast<int>(studio.passes().passCount())) {
        std::fprintf(stderr, "executor-studio: --pass %d: the recording has %zu passes\n",
                     options.pass, studio.passes().passCount());
        return 2;
      }
      studio.passes().select(options.pass - 1);
    }
    if (!options.editFile.empty()) {
      std::ifstream in(options.editFile);
      if (!in) {
        std::fprintf(stderr, "executor-studio: --edit: cannot read %s\n",
                     options.editFile.c_str());
        return 1;
      }
      std::stringstream text;
      text << in.rdbuf();
      view.editAndRerun(options.pass - 1, text.str());
      studio.waitForRecording(300s);
      if (!studio.editErrors().empty()) {
        const RecordedDiagnostic &d = studio.editErrors()[0];
        std::fprintf(stderr, "executor-studio: --edit %s:%u:%u: %s\n",
                     options.editFile.c_str(), d.line, d.column, d.message.c_str());
      }
      studio.passes().select(std::min<int>(options.pass,
                                           static_cast<int>(studio.passes().passCount()) - 1));
    }
    if (!options.search.empty())
      view.setSearch(options.search);
    bool launched = true;
    if (!options.launch.empty()) {
      // Arguments that cannot be launched: no picture, the reason.
      int kernel = studio.findKernel(options.launch);
      std::string error;
      if (kernel >= 0 && !options.inputs.empty() &&
          !studio.setInputsFromJson(static_cast<size_t>(kernel), options.inputs, error)) {
        std::fprintf(stderr, "executor-studio: --inputs: %s\n", error.c_str());
        return 2;
      }
      launched = launchForScreenshot(studio, options);
      if (launched && options.inspect && !studio.executor().launches().empty())
        view.openInspector(studio.executor().launches().back().id, false, 0);
    }
    std::vector<unsigned char> rgba;
    int w = 0, h = 0;
    int frames = std::max(3, options.frames);
    for (int i = 0; i < frames; ++i) {
      window->waitEvents(0);
      window->beginFrame();
      view.draw();
      window->endFrame(i + 1 == frames ? &rgba : nullptr, &w, &h);
    }
    if (!writePng(options.screenshot, w, h, rgba, error)) {
      std::fprintf(stderr, "executor-studio: %s\n", error.c_str());
      return 1;
    }
    std::printf("wrote %s (%dx%d): %s\n", options.screenshot.c_str(), w, h,
                studio.status().c_str());
    return launched ? 0 : 3;
  }

  std::string shownTitle;
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    std::signal(sig, requestStop);
  while (!window->shouldClose() && !stopRequested) {
    bool busy = studio.recordingInProgress() || studio.executor().busy();
    window->waitEvents(busy ? 0.0 : 0.1);
    window->beginFrame();
    view.draw();
    window->endFrame();
    if (title(studio) != shownTitle) {
      shownTitle = title(studio);
      window->setTitle(shownTitle);
    }
  }
  window->position(settings.windowX, settings.windowY);
  window->size(settings.windowWidth, settings.windowHeight);
  if (studio.document().hasFile())
    settings.lastFile = studio.document().path();
  if (!settings.save(settingsPath, &error))
    std::fprintf(stderr, "executor-studio: %s\n", error.c_str());
  return 0;
}

} // namespace executor_studio::gui
