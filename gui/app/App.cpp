//===- App.cpp - executor-studio's GLFW + OpenGL3 glue --------------------===//
#include "App.h"
#include "VirtualDisplay.h"

#include "StudioModel/Settings.h"
#include "StudioModel/Studio.h"
#include "StudioUI/StudioView.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

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
#include <thread>

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
bool parseSize(const std::string &text, int &w, int &h) {
  return std::sscanf(text.c_str(), "%dx%d", &w, &h) == 2 && w >= 320 && h >= 240 &&
         w <= 8192 && h <= 8192;
}

/// llvm::cl's error lines ("executor-studio: ...") as one line without the
/// program's name.
std::string oneLine(const std::string &text, const std::string &program) {
  std::string line, joined;
  std::istringstream lines(text);
  while (std::getline(lines, line)) {
    if (line.rfind(program + ": ", 0) == 0)
      line = line.substr(program.size() + 2);
    if (line.empty())
      continue;
    if (!joined.empty())
      joined += " ";
    joined += line;
  }
  return joined;
}
} // namespace

bool parseArguments(int argc, char **argv, AppOptions &options, std::string &message) {
  namespace cl = llvm::cl;
  // What the options set (their defaults are AppOptions'); copied to
  // `options` once they are checked.
  static AppOptions parsed;
  static cl::OptionCategory window("Window");
  static cl::OptionCategory headless("Headless (under Xvfb with Mesa)");
  static cl::opt<std::string, true> file(cl::Positional, cl::location(parsed.start.file),
                                         cl::desc("[FILE.mlir]"), cl::cat(window));
  static cl::opt<std::string, true> pipeline(
      "pipeline", cl::location(parsed.start.pipeline), cl::value_desc("TEXT"), cl::cat(window),
      cl::desc("record TEXT (builtin.module(cse,canonicalize)) instead of the default pipeline"));
  static cl::opt<std::string, true> settings(
      "settings", cl::location(parsed.settingsPath), cl::value_desc("FILE"), cl::cat(window),
      cl::desc("window and layout settings (default "
               "$XDG_CONFIG_HOME/executor-studio/settings.json)"));
  static cl::opt<bool, true> debugBuild(
      "debug-build", cl::location(parsed.start.debugBuild), cl::cat(window),
      cl::desc("compile the kernels with debug info (the \"debug build\" toggle): a crash "
               "names the .mlir line of each kernel frame"));
  static cl::opt<std::string> size("size", cl::value_desc("WxH"), cl::cat(window),
                                   cl::desc("the window size"));
  static cl::opt<std::string, true> screenshot(
      "screenshot", cl::location(parsed.screenshot), cl::value_desc("OUT.png"),
      cl::cat(headless),
      cl::desc("render a few frames, write them as a PNG and exit"));
  static cl::opt<std::string> pass(
      "pass", cl::value_desc("N|NAME"), cl::cat(headless),
      cl::desc("select pass N (1-based, as the pass list numbers them) or by name: cse, "
               "compute/asm (a target's own step)"));
  static cl::opt<std::string, true> view("view", cl::location(parsed.start.view),
                                         cl::value_desc("MODE"), cl::cat(headless),
                                         cl::desc("side-by-side, unified or source"));
  static cl::opt<std::string, true> search("search", cl::location(parsed.start.search),
                                           cl::value_desc("TEXT"), cl::cat(headless),
                                           cl::desc("search the IR view for TEXT"));
  static cl::opt<std::string> history(
      "history", cl::value_desc("LINE[:COL]"), cl::cat(headless),
      cl::desc("follow the op at LINE (and COL) of the file through every pass (its op "
               "history; records with locations)"));
  static cl::opt<std::string, true> edit(
      "edit", cl::location(parsed.start.editFile), cl::value_desc("FILE"), cl::cat(headless),
      cl::desc("replace the IR after --pass N with FILE and re-run the passes after it "
               "(shows the edited re-run)"));
  static cl::opt<bool, true> restoreEdit(
      "restore-edit", cl::location(parsed.start.restoreEdit), cl::cat(headless),
      cl::desc("restore the edit of FILE that an earlier session kept (in "
               "$XDG_STATE_HOME/executor-studio/recovery; the window offers it) and re-run "
               "the passes after it"));
  static cl::opt<bool, true> inspect(
      "inspect", cl::location(parsed.start.inspect), cl::cat(headless),
      cl::desc("open the result inspector on --launch's first result"));
  static cl::opt<std::string, true> launch(
      "launch", cl::location(parsed.start.launch), cl::value_desc("ENTRY"), cl::cat(headless),
      cl::desc("launch kernel ENTRY (square, compute::square or @compute::@square) before the "
               "screenshot"));
  static cl::opt<bool, true> underDebugger(
      "under-debugger", cl::location(parsed.start.underDebugger), cl::cat(headless),
      cl::desc("--launch under a debugger (\"Launch under debugger\"): the picture shows "
               "the session waiting for one and the gdb and lldb commands, which are "
               "printed"));
  static cl::opt<std::string, true> inputs(
      "inputs", cl::location(parsed.start.inputs), cl::value_desc("JSON"), cl::cat(headless),
      cl::desc("its inputs: a JSON array, one entry per argument, each an array, a number or "
               "a pattern ({\"iota\": 1})"));
  static cl::opt<std::string, true> executor(
      "executor", cl::location(parsed.start.executor), cl::value_desc("HOST:PORT"),
      cl::cat(headless),
      cl::desc("the executor for --launch (default: start a local one)"));
  static cl::opt<int, true> frames("frames", cl::location(parsed.frames), cl::value_desc("N"),
                                   cl::cat(headless),
                                   cl::desc("frames to render before the screenshot"));
  static cl::OptionCategory noWindow("Without a window");
  static cl::opt<std::string, true> printDiff(
      "print-diff", cl::location(parsed.printDiff), cl::value_desc("PASS"), cl::cat(noWindow),
      cl::desc("write the diff the studio shows for PASS (a number or a name, as --pass) to "
               "stdout and exit"));
  static cl::opt<bool, true> lineDiff("line-diff", cl::location(parsed.lineDiff),
                                      cl::cat(noWindow),
                                      cl::desc("with --print-diff: the plain line diff"));
  static cl::list<std::string> graph(
      "graph", cl::multi_val(2), cl::value_desc("PASS FUNC"), cl::cat(noWindow),
      cl::desc("write the graph of function FUNC (main, compute::square) at PASS (a number or "
               "a name, as --pass) as SVG, laid out by Graphviz, and exit"));
  static cl::opt<std::string, true> output(
      "o", cl::location(parsed.output), cl::value_desc("FILE.svg"), cl::cat(noWindow),
      cl::desc("with --graph: write the SVG to FILE (default: stdout)"));
  static cl::opt<std::string, true> showGraph(
      "show-graph", cl::location(parsed.start.showGraph), cl::value_desc("FUNC"), cl::cat(headless),
      cl::desc("show the Graph view of function FUNC below the IR"));
  static cl::opt<bool> shortHelp("h", cl::Hidden, cl::desc("the same as --help"));

  cl::ResetAllOptionOccurrences();
  cl::HideUnrelatedOptions({&window, &headless, &noWindow});
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "steps through the pipeline recorded on FILE pass by pass, with a diff of what each "
          "pass changed, and launches its cross-compiled kernels on an executor-server.\n",
          &errorStream)) {
    message = oneLine(errors, "executor-studio");
    return false;
  }
  if (shortHelp) {
    cl::PrintHelpMessage();
    std::exit(0);
  }
  auto refuse = [&](const std::string &problem) {
    message = problem + " (see --help)";
    return false;
  };
  options = parsed;
  StudioStart &start = options.start;
  if (graph.size() == 2) {
    options.graphPass = graph[0];
    options.graphFunction = graph[1];
  }
  if (pass.getNumOccurrences()) {
    const std::string &text = pass;
    bool number = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
      return c >= '0' && c <= '9';
    });
    if (number)
      start.pass = std::atoi(text.c_str());
    else if (!text.empty() && text[0] != '-')
      start.passName = text; // (resolved against the recording)
    if (start.pass < 1 && start.passName.empty())
      return refuse("--pass takes a pass number from 1 or a pass name");
  }
  if (history.getNumOccurrences()) {
    auto [lineText, columnText] = llvm::StringRef(history).split(':');
    if (lineText.getAsInteger(10, start.historyLine) || start.historyLine == 0 ||
        (history.find(':') != std::string::npos &&
         (columnText.getAsInteger(10, start.historyColumn) || start.historyColumn == 0)))
      return refuse("--history takes LINE or LINE:COL of the file, numbered from 1");
  }
  if (view.getNumOccurrences() && !viewModeNamed(start.view))
    return refuse("--view takes side-by-side, unified or source");
  if (size.getNumOccurrences() && !parseSize(size, options.width, options.height))
    return refuse("--size takes WxH (at least 320x240)");
  if (!start.inputs.empty() && start.launch.empty())
    return refuse("--inputs goes with --launch");
  if (!options.printDiff.empty() && (!options.screenshot.empty() || start.file.empty()))
    return refuse("--print-diff PASS goes with a FILE and without --screenshot");
  if (!options.graphPass.empty() &&
      (!options.screenshot.empty() || !options.printDiff.empty() || start.file.empty()))
    return refuse("--graph PASS FUNC goes with a FILE and without --screenshot or --print-diff");
  if (!options.output.empty() && options.graphPass.empty())
    return refuse("-o goes with --graph");
  if (!start.showGraph.empty() && options.screenshot.empty())
    return refuse("--show-graph goes with --screenshot (in the window, tick \"graph\")");
  if (options.lineDiff && options.printDiff.empty())
    return refuse("--line-diff goes with --print-diff");
  if (!start.editFile.empty() && (start.pass < 1 || options.screenshot.empty()))
    return refuse("--edit goes with --pass N and --screenshot");
  if (start.restoreEdit && (options.screenshot.empty() || !start.editFile.empty()))
    return refuse("--restore-edit goes with --screenshot and without --edit");
  if (start.inspect && start.launch.empty())
    return refuse("--inspect goes with --launch");
  if (start.underDebugger && (start.launch.empty() || start.inspect))
    return refuse("--under-debugger goes with --launch and without --inspect");
  if (!start.launch.empty() && options.screenshot.empty())
    return refuse("--launch goes with --screenshot (in the window, press Launch or F5)");
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
bool launchForScreenshot(Studio &studio, const StudioStart &start) {
  using namespace std::chrono_literals;
  ExecutorModel &executor = studio.executor();
  if (start.underDebugger && start.executor.empty()) {
    // Its own session, with a local executor --debug-wait: no connection.
  } else if (start.executor.empty())
    executor.startLocal();
  else
    executor.connect(start.executor);
  executor.waitIdle(30s);
  if (executor.state() != ExecutorState::Connected &&
      !(start.underDebugger && start.executor.empty())) {
    std::fprintf(stderr, "executor-studio: executor %s: %s\n", stateName(executor.state()),
                 executor.error().c_str());
    return false;
  }
  int kernel = studio.findKernel(start.launch);
  if (kernel < 0) {
    std::string names;
    for (const Kernel &k : studio.kernels())
      names += " " + k.qualifiedName();
    std::fprintf(stderr, "executor-studio: no kernel %s (the document launches:%s)\n",
                 start.launch.c_str(), names.empty() ? " none" : names.c_str());
    return false;
  }
  studio.selectKernel(kernel);
  std::string error;
  if (!start.inputs.empty() &&
      !studio.setInputsFromJson(static_cast<size_t>(kernel), start.inputs, error)) {
    std::fprintf(stderr, "executor-studio: %s\n", error.c_str());
    return false;
  }
  uint64_t id = start.underDebugger
                    ? studio.launchUnderDebugger(static_cast<size_t>(kernel))
                    : studio.launch(static_cast<size_t>(kernel), false);
  if (id == 0) {
    std::fprintf(stderr, "executor-studio: %s\n", studio.status().c_str());
    return false;
  }
  if (start.underDebugger) {
    // Until the executor says the session waits for a debugger.
    const DebugLaunch &d = executor.debugLaunch();
    auto deadline = std::chrono::steady_clock::now() + 60s;
    while (d.phase != DebugLaunch::Phase::Waiting &&
           d.phase != DebugLaunch::Phase::Finished &&
           std::chrono::steady_clock::now() < deadline) {
      executor.drain();
      std::this_thread::sleep_for(10ms);
    }
    if (d.phase != DebugLaunch::Phase::Waiting) {
      const LaunchRecord *r = executor.findLaunch(id);
      std::fprintf(stderr, "executor-studio: launch of %s under a debugger: %s\n",
                   start.launch.c_str(),
                   r && !r->error.empty() ? r->error.c_str() : debugPhaseName(d.phase));
      return false;
    }
    std::printf("launch #%llu %s: waiting for a debugger (pid %lld)\n  %s\n  %s\n",
                static_cast<unsigned long long>(id), start.launch.c_str(),
                static_cast<long long>(d.pid), d.gdbCommand.c_str(), d.lldbCommand.c_str());
    return true;
  }
  executor.waitIdle(60s);
  const LaunchRecord *r = executor.findLaunch(id);
  if (!r || r->status != LaunchRecord::Status::Done) {
    std::fprintf(stderr, "executor-studio: launch of %s failed: %s\n", start.launch.c_str(),
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
/// The error of a --pipeline that is no pipeline, or "": the input parsed,
/// yet no pass ran (the recorder stops at the pipeline's text).
std::string pipelineProblem(Studio &studio, const StudioStart &start) {
  const Recording &rec = studio.passes().recording();
  if (start.pipeline.empty() || !rec.inputIR || !rec.snapshots.empty() || rec.succeeded)
    return "";
  std::string problem;
  for (const RecordedDiagnostic &d : rec.diagnostics)
    problem += (problem.empty() ? "" : "; ") + d.message;
  return problem;
}

/// Records FILE for --print-diff and --graph; the exit code when that
/// failed (the error printed).
std::optional<int> recordWithoutWindow(Studio &studio, const AppOptions &options) {
  using namespace std::chrono_literals;
  if (!studio.start(options.start)) {
    std::fprintf(stderr, "executor-studio: %s\n", studio.status().c_str());
    return 1;
  }
  if (!studio.waitForRecording(300s)) {
    std::fprintf(stderr, "executor-studio: the recording did not finish\n");
    return 1;
  }
  if (std::string problem = pipelineProblem(studio, options.start); !problem.empty()) {
    std::fprintf(stderr, "executor-studio: --pipeline: %s\n", problem.c_str());
    return 2;
  }
  return std::nullopt;
}

/// --print-diff: records FILE, writes the selected pass's diff and exits.
int printDiff(const AppOptions &options) {
  Studio studio;
  if (std::optional<int> failed = recordWithoutWindow(studio, options))
    return *failed;
  PipelineModel &passes = studio.passes();
  passes.setStructural(!options.lineDiff);
  std::string error;
  std::optional<int> position = passes.positionNamed(options.printDiff, error);
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

/// --graph: records FILE, writes the graph of a function at a pass as SVG.
int printGraph(const AppOptions &options) {
  Studio studio;
  if (std::optional<int> failed = recordWithoutWindow(studio, options))
    return *failed;
  PipelineModel &passes = studio.passes();
  if (!passes.recording().inputIR) {
    std::string problem;
    for (const RecordedDiagnostic &d : passes.recording().diagnostics)
      if (problem.empty() && d.severity == RecordedDiagnostic::Severity::Error)
        problem = d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) +
                  ": " + d.message;
    std::fprintf(stderr, "executor-studio: --graph: %s does not parse: %s\n",
                 options.start.file.c_str(), problem.empty() ? "no message" : problem.c_str());
    return 1;
  }
  std::string error;
  std::optional<int> position;
  if (options.graphPass == "input" || options.graphPass == "0")
    position = kInputPosition;
  else
    position = passes.positionNamed(options.graphPass, error);
  if (!position) {
    std::fprintf(stderr, "executor-studio: --graph %s: %s\n", options.graphPass.c_str(),
                 error.c_str());
    return 2;
  }
  // The input is the file as written: its lines are the file's.
  std::shared_ptr<const std::string> text =
      *position == kInputPosition ? studio.document().shared() : passes.irAt(*position);
  if (!text) {
    std::fprintf(stderr, "executor-studio: --graph %s: the recording has no IR there\n",
                 options.graphPass.c_str());
    return 2;
  }
  if (passes.snapshotKind(*position) != SnapshotKind::MLIR) {
    std::fprintf(stderr,
                 "executor-studio: --graph %s: the step is %s, not MLIR; a graph is drawn of "
                 "MLIR steps (the target's steps before its llvm and asm)\n",
                 options.graphPass.c_str(), snapshotKindName(passes.snapshotKind(*position)));
    return 2;
  }
  llvm::Expected<std::shared_ptr<const LaidOutGraph>> graph =
      studio.graph().cache().get(text, options.graphFunction);
  if (!graph) {
    std::fprintf(stderr, "executor-studio: --graph %s %s: %s\n", options.graphPass.c_str(),
                 options.graphFunction.c_str(), llvm::toString(graph.takeError()).c_str());
    return 2;
  }
  std::string svg = renderSvg((*graph)->graph, (*graph)->layout);
  if (options.output.empty() || options.output == "-") {
    std::fwrite(svg.data(), 1, svg.size(), stdout);
    return 0;
  }
  std::error_code ec;
  llvm::raw_fd_ostream out(options.output, ec);
  if (ec) {
    std::fprintf(stderr, "executor-studio: -o %s: %s\n", options.output.c_str(),
                 ec.message().c_str());
    return 1;
  }
  out << svg;
  out.close();
  if (out.has_error()) {
    std::fprintf(stderr, "executor-studio: -o %s: %s\n", options.output.c_str(),
                 out.error().message().c_str());
    out.clear_error();
    return 1;
  }
  std::fprintf(stderr, "executor-studio: wrote %s (@%s at %s: %zu nodes, %zu edges)\n",
               options.output.c_str(), (*graph)->graph.function.c_str(),
               passes.positionName(*position).c_str(), (*graph)->graph.nodes.size(),
               (*graph)->graph.edges.size());
  return 0;
}
} // namespace

namespace {
using namespace std::chrono_literals;

/// The settings the run uses: the user's (or --settings'), the defaults for
/// a screenshot without --settings, and what --view and --history ask for.
Settings loadSettings(const AppOptions &options, const std::string &settingsPath,
                      bool headless) {
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
  if (!options.start.view.empty())
    settings.viewMode = options.start.view;
  if (options.start.historyLine)
    settings.printLocations = true; // an op is followed by its location
  return settings;
}

/// The start the run hands the model: the command line's, completed from
/// `settings`. In the window: FILE, else the last file (when it is still
/// there), and --pipeline, else the settings' pipeline. Locations printed
/// as the settings say (loadSettings: --history turns them on).
StudioStart completeStart(const AppOptions &options, const Settings &settings, bool headless) {
  StudioStart start = options.start;
  if (!headless) {
    struct stat st {};
    if (start.file.empty() && !settings.lastFile.empty() &&
        ::stat(settings.lastFile.c_str(), &st) == 0)
      start.file = settings.lastFile;
    if (start.pipeline.empty())
      start.pipeline = settings.pipeline;
  }
  start.printLocations = settings.printLocations;
  return start;
}

/// --pass N or --pass NAME; an exit code when it names no pass.
std::optional<int> selectPass(Studio &studio, const StudioStart &start) {
  std::string error;
  if (!start.passName.empty()) {
    std::optional<int> position = studio.passes().positionNamed(start.passName, error);
    if (!position) {
      std::fprintf(stderr, "executor-studio: --pass %s: %s\n", start.passName.c_str(),
                   error.c_str());
      return 2;
    }
    studio.passes().select(*position);
  }
  if (start.pass > 0) {
    if (start.pass > static_cast<int>(studio.passes().passCount())) {
      std::fprintf(stderr, "executor-studio: --pass %d: the recording has %zu passes\n",
                   start.pass, studio.passes().passCount());
      return 2;
    }
    studio.passes().select(start.pass - 1);
  }
  return std::nullopt;
}

/// --edit FILE: the IR after --pass N replaced and the rest re-run; an exit
/// code when FILE cannot be read.
std::optional<int> applyEditFile(Studio &studio, StudioView &view, const StudioStart &start) {
  std::ifstream in(start.editFile);
  if (!in) {
    std::fprintf(stderr, "executor-studio: --edit: cannot read %s\n", start.editFile.c_str());
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  view.editAndRerun(start.pass - 1, text.str());
  studio.waitForRecording(300s);
  if (!studio.editErrors().empty()) {
    const RecordedDiagnostic &d = studio.editErrors()[0];
    std::fprintf(stderr, "executor-studio: --edit %s:%u:%u: %s\n", start.editFile.c_str(),
                 d.line, d.column, d.message.c_str());
  }
  studio.passes().select(
      std::min<int>(start.pass, static_cast<int>(studio.passes().passCount()) - 1));
  return std::nullopt;
}

/// The kept edit: said to be there, or (--restore-edit) restored and
/// re-run; an exit code when there is none to restore or it cannot be.
std::optional<int> offerKeptEdit(Studio &studio, const StudioStart &start) {
  if (const RecoveredEdit *kept = studio.recoveredEdit(); kept && !start.restoreEdit)
    std::fprintf(stderr,
                 "executor-studio: an edit of pass %d of %s was kept at %s UTC: "
                 "--restore-edit restores it\n",
                 kept->pass + 1, kept->document.c_str(), kept->savedAt.c_str());
  if (!start.restoreEdit)
    return std::nullopt;
  const RecoveredEdit *kept = studio.recoveredEdit();
  if (!kept) {
    std::fprintf(stderr, "executor-studio: --restore-edit: no edit of %s is kept in %s\n",
                 start.file.c_str(), RecoveryStore::defaultDir().c_str());
    return 2;
  }
  int pass = kept->pass;
  if (!studio.restoreRecoveredEdit()) {
    std::fprintf(stderr, "executor-studio: --restore-edit: %s\n", studio.status().c_str());
    return 2;
  }
  studio.waitForRecording(300s);
  std::printf("restored the edit of pass %d: %s\n", pass + 1, studio.status().c_str());
  studio.passes().select(
      std::min<int>(pass + 1, static_cast<int>(studio.passes().passCount()) - 1));
  return std::nullopt;
}

/// What `start` asks for once its file is recorded: a pass, an edit, the
/// kept edit, a search, the graph, an op's history, a launch. An exit code
/// when one cannot be done (the reason printed); `launched` says whether
/// the launch (when one is asked for) succeeded.
std::optional<int> applyStart(Studio &studio, StudioView &view, const StudioStart &start,
                              bool &launched) {
  launched = true;
  if (std::optional<int> exit = selectPass(studio, start))
    return exit;
  if (!start.editFile.empty())
    if (std::optional<int> exit = applyEditFile(studio, view, start))
      return exit;
  if (std::optional<int> exit = offerKeptEdit(studio, start))
    return exit;
  if (!start.search.empty())
    view.setSearch(start.search);
  if (!start.showGraph.empty()) {
    studio.graph().setShown(true);
    studio.graph().setFunction(start.showGraph);
  }
  std::string why;
  if (start.historyLine &&
      !view.openOpHistoryAtFileLine(start.historyLine, start.historyColumn, &why)) {
    std::string at = std::to_string(start.historyLine);
    if (start.historyColumn)
      at += ":" + std::to_string(start.historyColumn);
    std::fprintf(stderr, "executor-studio: --history %s: %s\n", at.c_str(), why.c_str());
    return 2;
  }
  if (!start.launch.empty()) {
    // Arguments that cannot be launched: no picture, the reason.
    int kernel = studio.findKernel(start.launch);
    std::string error;
    if (kernel >= 0 && !start.inputs.empty() &&
        !studio.setInputsFromJson(static_cast<size_t>(kernel), start.inputs, error)) {
      std::fprintf(stderr, "executor-studio: --inputs: %s\n", error.c_str());
      return 2;
    }
    launched = launchForScreenshot(studio, start);
    if (launched && start.inspect && !studio.executor().launches().empty())
      view.openInspector(studio.executor().launches().back().id, false, 0);
  }
  return std::nullopt;
}

/// --screenshot: once the recording is in, what the start asks for
/// (applyStart), a few frames, the PNG. The exit code.
int runHeadless(Studio &studio, StudioView &view, GlWindow &window, const AppOptions &options) {
  studio.waitForRecording(300s);
  if (std::string problem = pipelineProblem(studio, options.start); !problem.empty()) {
    std::fprintf(stderr, "executor-studio: --pipeline: %s\n", problem.c_str());
    return 2;
  }
  bool launched = true;
  if (std::optional<int> exit = applyStart(studio, view, options.start, launched))
    return *exit;
  std::vector<unsigned char> rgba;
  int w = 0, h = 0;
  int frames = std::max(3, options.frames);
  for (int i = 0; i < frames; ++i) {
    window.waitEvents(0);
    window.beginFrame();
    view.draw();
    window.endFrame(i + 1 == frames ? &rgba : nullptr, &w, &h);
  }
  std::string error;
  if (!writePng(options.screenshot, w, h, rgba, error)) {
    std::fprintf(stderr, "executor-studio: %s\n", error.c_str());
    return 1;
  }
  std::printf("wrote %s (%dx%d): %s\n", options.screenshot.c_str(), w, h,
              studio.status().c_str());
  return launched ? 0 : 3;
}

/// The window until it is closed (or SIGINT, SIGTERM, SIGHUP): once the
/// recording is in, what the start asks for (applyStart: the parser leaves
/// the window --pass, --search and --history); then its place, size and
/// document are saved in the settings.
int runWindow(Studio &studio, StudioView &view, GlWindow &window, const StudioStart &start,
              Settings &settings, const std::string &settingsPath) {
  std::string shownTitle;
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    std::signal(sig, requestStop);
  bool started = false;
  while (!window.shouldClose() && !stopRequested) {
    bool busy = studio.recordingInProgress() || studio.executor().busy();
    window.waitEvents(busy ? 0.0 : 0.1);
    window.beginFrame();
    view.draw();
    window.endFrame();
    // (Applied when done: waiting no time.)
    if (!started && studio.waitForRecording(0ms)) {
      // (What cannot be done is said on stderr; the window stays.)
      started = true;
      bool launched = true;
      (void)applyStart(studio, view, start, launched);
    }
    if (title(studio) != shownTitle) {
      shownTitle = title(studio);
      window.setTitle(shownTitle);
    }
  }
  window.position(settings.windowX, settings.windowY);
  window.size(settings.windowWidth, settings.windowHeight);
  if (studio.document().hasFile())
    settings.lastFile = studio.document().path();
  std::string error;
  if (!settings.save(settingsPath, &error))
    std::fprintf(stderr, "executor-studio: %s\n", error.c_str());
  return 0;
}
} // namespace

int runApp(const AppOptions &options) {
  if (!options.printDiff.empty())
    return printDiff(options);
  if (!options.graphPass.empty())
    return printGraph(options);
  bool headless = !options.screenshot.empty();
  std::string settingsPath =
      options.settingsPath.empty() ? Settings::defaultPath() : options.settingsPath;
  Settings settings = loadSettings(options, settingsPath, headless);
  StudioStart start = completeStart(options, settings, headless);
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

  // Edits are kept until reverted, and offered again at the next start.
  StudioOptions studioOptions;
  studioOptions.recoveryDir = RecoveryStore::defaultDir();
  Studio studio(studioOptions);
  // The model gets the start once; a screenshot needs its file.
  if (!studio.start(start)) {
    std::fprintf(stderr, "executor-studio: %s\n", studio.status().c_str());
    if (headless)
      return 1;
  }
  if (!headless && studio.document().hasFile())
    settings.lastFile = studio.document().path();
  StudioView view(studio, settings);
  view.setLaunchKey(GLFW_KEY_F5);
  // The same start, the same model and view: the frames go to a PNG or to
  // the window.
  if (headless)
    return runHeadless(studio, view, *window, options);
  return runWindow(studio, view, *window, start, settings, settingsPath);
}

} // namespace executor_studio::gui
