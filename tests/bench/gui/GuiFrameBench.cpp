//===- GuiFrameBench.cpp - executor-studio frame time on a huge diff ------===//
//
//   executor-studio-gui-bench [--lines N] [--frames N] [--scroll PX]
//                             [--reference-frames N] [--size WxH]
//
// Records a generated program whose snapshots have N (default 100,000)
// lines, shows the before/after diff of its cse pass side by side and
// scrolls it a few lines every frame, under Xvfb with Mesa (a private Xvfb
// when DISPLAY is unset). Prints, in one run:
//   - the frame time (draw + OpenGL render + glFinish) scrolling with
//     ImGuiListClipper: median, p99 and max over the frames (goal: p99 under
//     16 ms);
//   - the reference: the same view drawing every row (no clipper);
//   - what it took to get there: recording, diff, first frame;
//   - what recording in a worker process costs: the studio's recording
//     (worker, every changed text printed and sent) against the same
//     recording in this process with texts printed when shown.
// Then the Graph view (issue 37): a generated function of --graph-ops
// (default 2,000) operations in loops, built and laid out by Graphviz
// (goal: under 1 s), shown again from the cache, and the frame time with
// it drawn (pan and zoom). --graph-only skips the diff.
//
//   executor-studio-gui-bench --targets 128,512 [--size WxH]
//
// Issue 39: opens the program of N targets (../TargetsProgram.h) with the
// default pipeline, each target's own steps recorded, and draws frames
// while its recording arrives, as the studio does: the frames while the
// worker records, the frame that takes the recording in (the pass list of
// every step and target, the first changed step shown with its diff), and
// the frames after it. Prints the worst frame time while the recording
// arrives (goal: under 16 ms) and what the first diff took.
//
//===----------------------------------------------------------------------===//
#include "../TargetsProgram.h"
#include "App.h"
#include "VirtualDisplay.h"

#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Support/Targets.h"
#include "ExecutorStudio/Graph/IrGraph.h"
#include "StudioModel/Settings.h"
#include "StudioModel/Studio.h"
#include "StudioUI/StudioView.h"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <GL/gl.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sstream>
#include <string>
#include <vector>

using namespace executor_studio::gui;
using Clock = std::chrono::steady_clock;

namespace {
double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

/// Functions of ~48 lines; every fourth computes a value twice, which cse
/// merges, so the diff has changes all through the file.
std::string generate(int lines) {
  const int body = 44;
  int functions = std::max(1, lines / (body + 4));
  std::ostringstream os;
  os << "module {\n";
  for (int f = 0; f < functions; ++f) {
    os << "  func.func @f" << f << "(%a: i32, %b: i32) -> i32 {\n";
    os << "    %x0 = arith.addi %a, %b : i32\n";
    for (int j = 1; j <= body; ++j) {
      const char *op = j % 3 == 0 ? "arith.xori" : j % 3 == 1 ? "arith.muli" : "arith.addi";
      os << "    %x" << j << " = " << op << " %x" << j - 1 << ", %a : i32\n";
    }
    if (f % 4 == 0) {
      os << "    %dup = arith.addi %a, %b : i32\n";
      os << "    %y = arith.addi %x" << body << ", %dup : i32\n";
    } else {
      os << "    %y = arith.addi %x" << body << ", %b : i32\n";
    }
    os << "    return %y : i32\n  }\n";
  }
  os << "}\n";
  return os.str();
}

struct Stats {
  double median = 0, p99 = 0, max = 0, mean = 0;
};
Stats stats(std::vector<double> v) {
  Stats s;
  if (v.empty())
    return s;
  std::sort(v.begin(), v.end());
  s.median = v[v.size() / 2];
  s.p99 = v[std::min(v.size() - 1, static_cast<size_t>(v.size() * 0.99))];
  s.max = v.back();
  for (double x : v)
    s.mean += x;
  s.mean /= static_cast<double>(v.size());
  return s;
}

/// One function of about `ops` operations: loops of 48 adds each.
std::string generateFunction(int ops) {
  const int body = 48;
  int loops = std::max(1, (ops - 3) / (body + 2));
  std::ostringstream os;
  os << "func.func @big(%a: f64, %n: index) -> f64 {\n";
  os << "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n";
  std::string last = "%a";
  for (int l = 0; l < loops; ++l) {
    os << "  %r" << l << " = scf.for %i" << l << " = %c0 to %n step %c1 iter_args(%s" << l
       << " = " << last << ") -> (f64) {\n";
    std::string v = "%s" + std::to_string(l);
    for (int b = 0; b < body; ++b) {
      std::string next = "%v" + std::to_string(l) + "_" + std::to_string(b);
      os << "    " << next << " = arith." << (b % 2 ? "mulf " : "addf ") << v
         << (b % 3 ? ", %a" : ", " + last) << " : f64\n";
      v = next;
    }
    os << "    scf.yield " << v << " : f64\n  }\n";
    last = "%r" + std::to_string(l);
  }
  os << "  return " << last << " : f64\n}\n";
  return os.str();
}

size_t countLines(const std::string &text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}
/// The Graph view of one function of `ops` operations: its layout, its
/// re-show from the cache, and frames with it drawn.
int benchGraph(GlWindow &window, int ops, int frames) {
  std::string program = generateFunction(ops);
  Studio studio;
  studio.setPipelineText("builtin.module(cse)");
  studio.openText("graph.mlir", program);
  studio.waitForRecording(std::chrono::minutes(5));
  PipelineModel &passes = studio.passes();
  if (passes.passCount() != 1 || !passes.recording().succeeded) {
    std::fprintf(stderr, "gui-bench: the graph's recording failed: %s\n",
                 studio.status().c_str());
    return 1;
  }
  passes.select(0);
  std::shared_ptr<const std::string> text = passes.irAt(0);
  // Built and laid out (Graphviz), then shown again from the cache.
  Clock::time_point a = Clock::now();
  llvm::Expected<executor_studio::IrGraph> built = executor_studio::buildIrGraph(*text, "big");
  Clock::time_point b = Clock::now();
  if (!built) {
    std::fprintf(stderr, "gui-bench: %s\n", llvm::toString(built.takeError()).c_str());
    return 1;
  }
  std::clock_t cpu0 = std::clock();
  llvm::Expected<executor_studio::GraphLayout> layout = executor_studio::layoutGraph(*built);
  double layoutCpu = 1000.0 * static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  Clock::time_point c = Clock::now();
  if (!layout) {
    std::fprintf(stderr, "gui-bench: %s\n", llvm::toString(layout.takeError()).c_str());
    return 1;
  }
  GraphModel &graph = studio.graph();
  graph.setShown(true);
  Settings settings;
  settings.viewMode = "side-by-side";
  StudioView view(studio, settings);
  Clock::time_point d = Clock::now();
  window.beginFrame();
  view.draw(); // builds and lays out through the cache
  window.endFrame();
  window.finish();
  Clock::time_point e = Clock::now();
  if (!graph.graph()) {
    std::fprintf(stderr, "gui-bench: no graph: %s\n", graph.error().c_str());
    return 1;
  }
  // Another step and back: the first graph comes from the cache.
  passes.select(kInputPosition);
  window.beginFrame();
  view.draw();
  window.endFrame();
  passes.select(0);
  Clock::time_point f = Clock::now();
  window.beginFrame();
  view.draw();
  window.endFrame();
  window.finish();
  Clock::time_point g = Clock::now();
  bool cached = graph.fromCache();
  std::vector<double> drawn;
  for (int i = 0; i < std::min(frames, 200); ++i) {
    Clock::time_point s0 = Clock::now();
    window.waitEvents(0);
    window.beginFrame();
    view.draw();
    window.endFrame();
    window.finish();
    drawn.push_back(ms(s0, Clock::now()));
  }
  Stats fs = stats(drawn);
  const executor_studio::IrGraph &shown = graph.graph()->graph;
  std::printf("executor-studio Graph view: @big, %zu ops, %zu nodes, %zu edges, %zu clusters%s\n",
              built->opCount, built->nodes.size(), built->edges.size(), built->clusters.size(),
              built->collapsed ? " (regions collapsed)" : "");
  std::printf("  build %.0f ms, Graphviz layout %.0f ms: %.0f ms (goal < 1000 ms: %s); the "
              "layout's CPU time %.0f ms (what a shared machine's load does not add)\n",
              ms(a, b), ms(b, c), ms(a, c), ms(a, c) < 1000 ? "met" : "MISSED", layoutCpu);
  std::printf("  first frame with the graph (build + layout + draw) %.0f ms; shown again "
              "from the cache %.1f ms (%s): %.0fx faster\n",
              ms(d, e), ms(f, g), cached ? "cached" : "NOT cached", ms(d, e) / std::max(ms(f, g), 1e-3));
  std::printf("  frames with the graph drawn (%zu nodes): median %.2f ms, p99 %.2f ms\n",
              shown.nodes.size(), fs.median, fs.p99);
  return 0;
}
} // namespace

/// The CPU time of this thread, in milliseconds (on a machine other work
/// shares, the wall clock of a part of a frame says little about it).
double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/// One frame as the studio's main loop draws it: the studio's own work
/// (update, the model, ImGui's draw lists) then OpenGL until glFinish and
/// the swap. Its wall time, and the studio's part in CPU time of the UI
/// thread, in milliseconds.
struct FrameTime {
  double total = 0, studio = 0;
};
FrameTime drawFrame(GlWindow &window, StudioView &view) {
  Clock::time_point a = Clock::now();
  double cpu = threadCpuMs();
  window.waitEvents(0);
  window.beginFrame();
  view.draw();
  double studio = threadCpuMs() - cpu;
  window.endFrame();
  window.finish();
  return {ms(a, Clock::now()), studio};
}

/// The process's resident memory (VmRSS), in MB; 0 when unknown.
double residentMB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0)
      return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
  return 0;
}

/// Issue 39: the frames while a recording of N targets arrives.
int benchTargets(GlWindow &window, const std::vector<int> &sizes) {
  std::printf("executor-studio frames while the recording of N targets arrives "
              "(default pipeline, each target's own steps)\n");
  for (int n : sizes) {
    Studio studio;
    Settings settings;
    settings.viewMode = "side-by-side";
    StudioView view(studio, settings);
    for (int i = 0; i < 5; ++i)
      drawFrame(window, view); // warm up: glyphs, buffers
    Clock::time_point start = Clock::now();
    studio.openText("targets.mlir", generateTargets(n));
    std::vector<double> during, after, duringOwn, afterOwn;
    FrameTime arrival;
    bool arrived = false;
    Clock::time_point arrivedAt = start;
    // Until the recording is in, then a second of frames (the first diff,
    // scrolling the pass list).
    Clock::time_point until = start + std::chrono::minutes(10);
    double applyMs = 0, diffMs = 0;
    while (Clock::now() < until) {
      bool busy = studio.recordingInProgress();
      uint64_t before = studio.recordingGeneration();
      // (The frame's parts: taking the recording in, the shown diff; the
      // draw then finds both done.)
      Clock::time_point a = Clock::now();
      double cpuA = threadCpuMs();
      studio.update();
      double cpuB = threadCpuMs();
      bool arrivesNow = !arrived && studio.recordingGeneration() != before;
      if (arrivesNow)
        studio.passes().diffView();
      double cpuC = threadCpuMs();
      Clock::time_point c = Clock::now();
      FrameTime frame = drawFrame(window, view);
      frame.total += ms(a, c);
      frame.studio += cpuC - cpuA;
      // (It may arrive between this update and the view's own.)
      if (!arrived && !arrivesNow && studio.recordingGeneration() != before) {
        arrivesNow = true;
        cpuB = cpuC;
      }
      if (arrivesNow) {
        applyMs = cpuB - cpuA;
        diffMs = cpuC - cpuB;
        arrived = true;
        arrival = frame;
        arrivedAt = Clock::now();
        until = Clock::now() + std::chrono::seconds(1);
        continue;
      }
      (arrived ? after : during).push_back(frame.total);
      (arrived ? afterOwn : duringOwn).push_back(frame.studio);
      if (!busy && !arrived && !studio.recordingInProgress() &&
          studio.recordingGeneration() == before)
        break; // (idle, and nothing arrived: it failed)
    }
    PipelineModel &passes = studio.passes();
    if (!arrived || !passes.recording().succeeded) {
      std::fprintf(stderr, "gui-bench: the recording of %d targets failed: %s\n", n,
                   studio.status().c_str());
      return 1;
    }
    Stats d = stats(during), a = stats(after);
    Stats dOwn = stats(duringOwn), aOwn = stats(afterOwn);
    double worst = std::max({d.max, a.max, arrival.total});
    double worstOwn = std::max({dOwn.max, aOwn.max, arrival.studio});
    std::printf("  N=%-4d %zu steps listed; recording %.0f ms\n", n, passes.entryCount(),
                ms(start, arrivedAt));
    std::printf("         while the worker records: %zu frames, median %.2f ms, max %.2f ms; "
                "the studio's part (CPU) median %.2f ms, max %.2f ms\n",
                during.size(), d.median, d.max, dOwn.median, dOwn.max);
    std::printf("         the frame the recording arrives in: %.2f ms, the studio's part (CPU) %.2f ms "
                "(taking it in %.2f ms, the first diff %.2f ms)\n",
                arrival.total, arrival.studio, applyMs, diffMs);
    std::printf("         the second after: %zu frames, median %.2f ms, max %.2f ms; "
                "the studio's part (CPU) median %.2f ms, max %.2f ms\n",
                after.size(), a.median, a.max, aOwn.median, aOwn.max);
    std::printf("         worst frame while the recording arrives: %.2f ms; its studio's part "
                "(CPU of the UI thread: the model, ImGui's draw lists; not Mesa's rendering, "
                "which this machine's software OpenGL does) %.2f ms (goal < 16 ms: %s)\n",
                worst, worstOwn, worstOwn < 16 ? "met" : "MISSED");
    // What the studio holds of the texts: those a view made (the shown step
    // and the one before it), of all the recording's.
    size_t texts = 0, madeTexts = 0, madeBytes = 0;
    auto count = [&](const executor_studio::IRText &ir) {
      if (!ir)
        return;
      ++texts;
      if (ir.isMade()) {
        ++madeTexts;
        madeBytes += ir->size();
      }
    };
    const executor_studio::Recording &recording = passes.recording();
    count(recording.inputIR);
    for (const executor_studio::Snapshot &step : recording.snapshots) {
      count(step.ir);
      for (const executor_studio::Snapshot &nested : step.nested)
        count(nested.ir);
    }
    std::printf("         texts in memory: %zu of %zu (%.1f MB; %.1f MB kept on disk until "
                "asked for); resident memory of the studio process %.0f MB\n",
                madeTexts, texts, madeBytes / 1048576.0,
                recording.keptTextBytes / 1048576.0, residentMB());
  }
  return 0;
}

int main(int argc, char **argv) {
  // LLVM's targets, as the tools register them (Targets.h).
  executor_studio::initializeTargets();
  // The studio records in a worker process: this program.
  if (std::optional<int> worker = executor_studio::runRecordWorkerIfAsked(argc, argv))
    return *worker;
  int lines = 100000, frames = 600, referenceFrames = 5, width = 1600, height = 960;
  std::vector<int> targetSizes;
  float scroll = 3 * 19; // about three lines a frame
  int graphOps = 2000;
  bool graphOnly = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : "0"; };
    if (arg == "--lines")
      lines = std::atoi(value());
    else if (arg == "--frames")
      frames = std::atoi(value());
    else if (arg == "--reference-frames")
      referenceFrames = std::atoi(value());
    else if (arg == "--scroll")
      scroll = static_cast<float>(std::atof(value()));
    else if (arg == "--size")
      std::sscanf(value(), "%dx%d", &width, &height);
    else if (arg == "--graph-ops")
      graphOps = std::atoi(value());
    else if (arg == "--graph-only")
      graphOnly = true;
    else if (arg == "--targets") {
      std::stringstream list(value());
      for (std::string size; std::getline(list, size, ',');)
        targetSizes.push_back(std::max(1, std::atoi(size.c_str())));
    } else {
      std::fprintf(stderr,
                   "usage: executor-studio-gui-bench [--lines N] [--frames N] [--scroll PX] "
                   "[--reference-frames N] [--size WxH] [--graph-ops N] [--graph-only] | "
                   "--targets N[,N...]\n");
      return 2;
    }
  }

  VirtualDisplay xvfb;
  std::string error;
  const char *display = std::getenv("DISPLAY");
  if (!display || !*display) {
    if (!xvfb.start(error, std::max(width, 1920), std::max(height, 1080))) {
      std::fprintf(stderr, "gui-bench: no DISPLAY and %s\n", error.c_str());
      return 1;
    }
    ::setenv("DISPLAY", xvfb.display().c_str(), 1);
  }
  std::unique_ptr<GlWindow> window = GlWindow::create(width, height, "gui-bench", error);
  if (!window) {
    std::fprintf(stderr, "gui-bench: %s\n", error.c_str());
    return 1;
  }
  setupStyle(15);
  if (!targetSizes.empty())
    return benchTargets(*window, targetSizes);
  // What draws the frames (Mesa's llvmpipe under Xvfb).
  const char *renderer = reinterpret_cast<const char *>(glGetString(GL_RENDERER));

  if (graphOnly)
    return benchGraph(*window, graphOps, frames);
  Studio studio;
  studio.setPipelineText("builtin.module(cse)");
  std::string program = generate(lines);
  Clock::time_point t0 = Clock::now();
  studio.openText("bench.mlir", program);
  studio.waitForRecording(std::chrono::minutes(10));
  Clock::time_point t1 = Clock::now();
  PipelineModel &passes = studio.passes();
  if (passes.passCount() != 1 || !passes.recording().succeeded) {
    std::fprintf(stderr, "gui-bench: the recording failed: %s\n", studio.status().c_str());
    return 1;
  }
  // What the worker costs: the same recording in this process, as the
  // studio made it before it recorded in a worker (texts printed when
  // shown: the input and the one snapshot the diff shows).
  double inProcess = 0;
  {
    executor_studio::RecordOptions options;
    options.pipeline = "builtin.module(cse)";
    options.recordNested = true;
    Clock::time_point r0 = Clock::now();
    executor_studio::Recording local =
        executor_studio::recordPipeline(program, "bench.mlir", options);
    if (local.inputIR && !local.snapshots.empty() && local.snapshots[0].ir)
      (void)local.inputIR->size(), (void)local.snapshots[0].ir->size();
    inProcess = ms(r0, Clock::now());
  }
  Settings settings;
  settings.viewMode = "side-by-side";
  StudioView view(studio, settings);
  passes.select(0);

  // The first frame computes the diff.
  Clock::time_point d0 = Clock::now();
  const DiffView &diff = passes.diffView();
  Clock::time_point d1 = Clock::now();
  window->beginFrame();
  view.draw();
  window->endFrame();
  window->finish();
  Clock::time_point d2 = Clock::now();
  size_t rows = passes.rowCount();

  std::printf("executor-studio frame time, %dx%d, OpenGL renderer: %s\n", width, height,
              renderer ? renderer : "?");
  std::printf("  snapshot: %zu lines before cse, %zu after; diff: %zu rows, -%zu +%zu\n",
              countLines(*passes.irAt(kInputPosition)), countLines(*passes.irAt(0)), rows,
              diff.diff.removed, diff.diff.added);
  std::printf("  recording %.0f ms, diff %.0f ms, first frame %.0f ms\n", ms(t0, t1),
              ms(d0, d1), ms(d1, d2));
  std::printf("  recording in a worker process %.0f ms; in this process, texts printed "
              "when shown, %.0f ms: %.2fx\n",
              ms(t0, t1), inProcess, ms(t0, t1) / inProcess);

  // One frame, timed in its parts: ImGui's draw lists (CPU), OpenGL
  // rendering until glFinish (Mesa), and the swap to the X server.
  struct Parts {
    std::vector<double> total, draw, render, swap;
  };
  auto run = [&](int count, float step, int &wraps, int &drawn) {
    Parts parts;
    wraps = 0;
    drawn = 0;
    float last = view.irScroll();
    for (int i = 0; i < count; ++i) {
      view.scrollIrBy(step);
      Clock::time_point a = Clock::now();
      window->waitEvents(0);
      window->beginFrame();
      view.draw();
      ImGui::Render();
      Clock::time_point b = Clock::now();
      int w = 0, h = 0;
      glfwGetFramebufferSize(window->handle(), &w, &h);
      glViewport(0, 0, w, h);
      glClearColor(0.10f, 0.11f, 0.13f, 1);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      glFinish();
      Clock::time_point c = Clock::now();
      glfwSwapBuffers(window->handle());
      glFinish();
      Clock::time_point d = Clock::now();
      parts.total.push_back(ms(a, d));
      parts.draw.push_back(ms(a, b));
      parts.render.push_back(ms(b, c));
      parts.swap.push_back(ms(c, d));
      if (view.irScroll() < last)
        ++wraps;
      last = view.irScroll();
      drawn = std::max(drawn, view.irRowsDrawn());
    }
    return parts;
  };

  int wraps = 0, drawn = 0;
  run(30, scroll, wraps, drawn); // warm up: glyphs, buffers
  Parts scrolling = run(frames, scroll, wraps, drawn);
  Stats s = stats(scrolling.total);
  std::printf("  scrolling %d frames (%.0f px a frame, %d rows drawn a frame):\n", frames,
              scroll, drawn);
  std::printf("    frame   median %6.2f ms, p99 %6.2f ms, max %6.2f ms (%.0f fps)\n",
              s.median, s.p99, s.max, 1000.0 / std::max(s.mean, 1e-3));
  Stats sd = stats(scrolling.draw), sr = stats(scrolling.render), ss = stats(scrolling.swap);
  std::printf("    of which ImGui draw lists (CPU) median %.2f ms, p99 %.2f ms;\n"
              "             OpenGL render (Mesa) median %.2f ms, p99 %.2f ms;\n"
              "             swap to the X server median %.2f ms, p99 %.2f ms\n",
              sd.median, sd.p99, sr.median, sr.p99, ss.median, ss.p99);
  // Far jumps: 1,500 lines a frame across the whole file.
  Parts jumping = run(std::max(10, frames / 10), 1500.0f * 19, wraps, drawn);
  Stats j = stats(jumping.total);
  std::printf("  jumping 1,500 lines a frame: median %.2f ms, p99 %.2f ms\n", j.median, j.p99);

  view.setDrawAllRows(true);
  int refDrawn = 0;
  Parts reference = run(referenceFrames, scroll, wraps, refDrawn);
  Stats r = stats(reference.total);
  Stats rd = stats(reference.draw);
  std::printf("  reference, every row drawn (no ImGuiListClipper), %d frames, %d rows: "
              "median %.0f ms (draw lists %.0f ms)\n",
              referenceFrames, refDrawn, r.median, rd.median);
  std::printf("  goal p99 < 16 ms: %s (p99 %.2f ms; %.0fx faster than the reference)\n",
              s.p99 < 16 ? "met" : "MISSED", s.p99, r.median / std::max(s.median, 1e-3));
  return benchGraph(*window, graphOps, frames);
}
