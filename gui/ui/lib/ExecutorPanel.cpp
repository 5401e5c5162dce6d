//===- ExecutorPanel.cpp - connect, kernels, inputs, launches, log --------===//
#include "Panels.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <vector>

namespace executor_studio::gui {

namespace {
ImVec4 stateColor(ExecutorState s) {
  switch (s) {
  case ExecutorState::Disconnected:
    return colors::dim();
  case ExecutorState::Connecting:
    return colors::warning();
  case ExecutorState::Connected:
    return colors::ok();
  case ExecutorState::Launching:
    return colors::changed();
  case ExecutorState::Error:
    return colors::error();
  }
  return colors::dim();
}

/// The input editors' parse results, by text (parsing a large fill every
/// frame would cost more than the frame).
struct InputCheck {
  std::string text;
  bool ok = false;
  std::string summary;
};
std::map<std::string, InputCheck> &inputChecks() {
  static std::map<std::string, InputCheck> checks;
  return checks;
}

void inputEditor(Studio &studio, size_t k, size_t a) {
  const Kernel &kernel = studio.kernels()[k];
  const ShapedArg &arg = kernel.inputs[a];
  ImGui::PushID(static_cast<int>(a));
  ImGui::TextColored(colors::accent(), "arg%zu", a);
  ImGui::SameLine();
  ImGui::TextUnformatted(arg.type.c_str());
  std::string &text = studio.inputText(k, a);
  ImGui::SetNextItemWidth(-FLT_MIN);
  inputString("##value", text, 0, "[1, 2, 3] or {\"fill\": 0} {\"iota\": 1} {\"random\": [0, 1]}");
  std::string key = kernel.qualifiedName() + "#" + std::to_string(a) + ":" + arg.type;
  InputCheck &check = inputChecks()[key];
  if (check.text != text || check.summary.empty()) {
    ParsedArgument parsed = parseInput(arg, text);
    check.text = text;
    check.ok = parsed.ok;
    check.summary = parsed.ok ? std::to_string(parsed.data.numElements()) + " x " +
                                    arg.element.name + ", shape " +
                                    formatShape(parsed.data.sizes)
                              : parsed.error;
  }
  if (check.ok)
    ImGui::TextColored(colors::dim(), "%s", check.summary.c_str());
  else {
    ImGui::PushStyleColor(ImGuiCol_Text, colors::error());
    ImGui::TextWrapped("%s", check.summary.c_str());
    ImGui::PopStyleColor();
  }
  // Fill patterns.
  std::string shape;
  if (!arg.hasStaticShape()) {
    shape = ", \"shape\": [";
    for (size_t i = 0; i < arg.shape.size(); ++i)
      shape += (i ? ", " : "") + std::to_string(arg.shape[i] < 0 ? 4 : arg.shape[i]);
    shape += "]";
  }
  // The pattern buttons at the right, beside the summary when it leaves
  // room, else under it (never drawn over it).
  float spacing = ImGui::GetStyle().ItemSpacing.x;
  float patterns = 3 * spacing;
  for (const char *label : {"1..n", "zeros", "iota", "random"})
    patterns += buttonWidth(label);
  float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + 2 * spacing + patterns <= right)
    ImGui::SameLine(right - patterns - ImGui::GetWindowPos().x);
  if (ImGui::SmallButton("1..n"))
    text = defaultInputText(arg);
  ImGui::SameLine();
  if (ImGui::SmallButton("zeros"))
    text = "{\"fill\": 0" + shape + "}";
  ImGui::SameLine();
  if (ImGui::SmallButton("iota"))
    text = "{\"iota\": 0, \"step\": 1" + shape + "}";
  ImGui::SameLine();
  if (ImGui::SmallButton("random"))
    text = "{\"random\": [0, 1], \"seed\": 1" + shape + "}";
  ImGui::PopID();
}

/// Whether `file` (a crash frame's, absolute) is the document: the same
/// path, or for a document not read from a file, the same name.
bool sameFile(const std::string &file, const Document &document) {
  auto base = [](const std::string &path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
  };
  if (!document.path().empty()) {
    std::error_code ec;
    if (std::filesystem::equivalent(file, document.path(), ec))
      return true;
  }
  return base(file) == base(document.name());
}

/// The backtrace of crashed launch `r`, a row a frame.
void drawCrashFrames(Studio &studio, StudioView::State &state, const LaunchRecord &r) {
  ImGui::TextColored(colors::error(), "Backtrace of launch #%llu %s",
                     static_cast<unsigned long long>(r.id), r.label.c_str());
  bool lines = false;
  ImGui::PushID("crash-frames");
  for (size_t f = 0; f < r.crashFrames.size(); ++f) {
    const CrashFrameRow &frame = r.crashFrames[f];
    lines |= frame.line != 0;
    std::string row = "#" + std::to_string(f) + " " + frame.text;
    bool here = frame.line && sameFile(frame.file, studio.document());
    ImGui::PushID(static_cast<int>(f));
    if (here) {
      ImGui::PushStyleColor(ImGuiCol_Text, colors::accent());
      if (ImGui::Selectable(row.c_str()))
        studio.passes().showSourceLine(frame.line);
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("show line %u of %s", frame.line, studio.document().name().c_str());
    } else {
      ImGui::TextColored(frame.inKernel ? colors::warning() : colors::dim(), "%s", row.c_str());
    }
    state.probe("crash-frame-" + std::to_string(f));
    ImGui::PopID();
  }
  ImGui::PopID();
  if (!lines)
    ImGui::TextColored(colors::dim(), "turn on \"debug build\" for the .mlir lines");
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The executor's state, address, triple and kind, and the connect,
/// start-local and disconnect controls.
void drawConnection(Studio &studio, StudioView::State &state) {
  ExecutorModel &executor = studio.executor();
  ExecutorState s = executor.state();

  ImGui::TextColored(colors::accent(), "Executor");
  ImGui::SameLine();
  ImGui::TextColored(stateColor(s), "[%s]", stateName(s));
  if (s == ExecutorState::Connected || s == ExecutorState::Launching ||
      s == ExecutorState::Connecting) {
    ImGui::SameLine();
    ImGui::TextColored(colors::dim(), "%s", executor.address().c_str());
    helpTooltip(executor.address().c_str());
    // What it runs: objects must be compiled for this triple.
    if (!executor.executorTriple().empty()) {
      ImGui::SameLine();
      ImGui::TextColored(colors::dim(), "%s", executor.executorTriple().c_str());
      helpTooltip("the executor's triple (ORC's setup message): the objects it "
                  "runs must be compiled for it");
    }
  }
  // Which kind of executor, and what a launch costs there.
  if ((s == ExecutorState::Connected || s == ExecutorState::Launching) &&
      !executor.executorKind().empty()) {
    std::vector<double> latencies;
    for (const LaunchRecord &r : executor.launches())
      if (r.status == LaunchRecord::Status::Done)
        latencies.push_back(r.latencyMs);
    if (latencies.empty())
      ImGui::TextColored(colors::dim(), "%s", executor.executorKind().c_str());
    else
      ImGui::TextColored(colors::dim(), "%s, launch %.0f us (median of %zu)",
                         executor.executorKind().c_str(),
                         median(latencies) * 1000.0, latencies.size());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", executor.executorKindSummary().c_str());
  }

  // Where to.
  float buttons = ImGui::CalcTextSize("Connect").x + ImGui::GetStyle().FramePadding.x * 2 +
                  ImGui::GetStyle().ItemSpacing.x;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - buttons);
  bool enter = inputString("##address", state.address, ImGuiInputTextFlags_EnterReturnsTrue,
                           "host:port of an executor-server");
  ImGui::SameLine();
  if (ImGui::Button("Connect") || enter) {
    state.settings->executorAddress = state.address;
    executor.connect(state.address);
  }
  state.probe("connect");
  if (ImGui::Button("Start local executor"))
    executor.startLocal();
  state.probe("start-local");
  helpTooltip("Starts executor-server on a free loopback port (stopped when the "
              "studio exits) and opens a session with it.");
  if (executor.localRunning()) {
    std::string local = "local " + executor.localAddress();
    sameLineOrWrap(std::min(ImGui::CalcTextSize(local.c_str()).x,
                            ImGui::GetContentRegionAvail().x * 0.5f));
    ImGui::TextColored(colors::dim(), "%s", local.c_str());
    helpTooltip(("local executor at " + executor.localAddress()).c_str());
    sameLineOrWrap(buttonWidth("stop"));
    if (ImGui::SmallButton("stop"))
      executor.stopLocal();
  }
  if (s == ExecutorState::Connected || s == ExecutorState::Launching) {
    sameLineOrWrap(buttonWidth("disconnect"));
    if (ImGui::SmallButton("disconnect"))
      executor.disconnect();
  }
  if (s == ExecutorState::Error) {
    ImGui::PushStyleColor(ImGuiCol_Text, colors::error());
    ImGui::TextWrapped("%s", executor.error().c_str());
    ImGui::PopStyleColor();
  }
  // Debugging: kernels with debug info, and the session a debugger attaches to.
  bool debug = studio.debugBuild();
  if (ImGui::Checkbox("debug build", &debug))
    studio.setDebugBuild(debug);
  state.probe("debug-build");
  helpTooltip("Compiles the kernels with debug info (executor-compile -g): a crash "
              "names the .mlir line of each kernel frame, and gdb attached to the "
              "session shows it.");
  if (executor.sessionPid()) {
    ImGui::SameLine();
    ImGui::TextColored(colors::dim(), "session pid %lld",
                       static_cast<long long>(executor.sessionPid()));
    ImGui::SameLine();
    if (ImGui::SmallButton("copy gdb command"))
      ImGui::SetClipboardText(executor.gdbCommand().c_str());
    state.probe("copy-gdb");
    helpTooltip(("Copies \"" + executor.gdbCommand() +
                 "\": run it on the executor's host to attach gdb to this "
                 "session (break KERNEL, continue, bt)")
                    .c_str());
  }
}

/// The kernels the host launches: a table to pick one from.
void drawKernels(Studio &studio) {
  ImGui::Separator();
  ImGui::TextColored(colors::accent(), "Kernels");
  ImGui::SameLine();
  ImGui::TextColored(colors::dim(), "launched by the host, in catalyst.target modules");
  helpTooltip("the kernels the host launches with catalyst.launch_kernel, in its "
              "catalyst.target modules");
  const std::vector<Kernel> &kernels = studio.kernels();
  if (kernels.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colors::dim());
    ImGui::TextWrapped("%s", studio.kernelsNote().empty()
                                 ? "no catalyst.launch_kernel in this document"
                                 : studio.kernelsNote().c_str());
    ImGui::PopStyleColor();
  } else {
    float rowHeight = ImGui::GetTextLineHeightWithSpacing() + 2;
    float height = std::min<float>(6.5f, static_cast<float>(kernels.size()) + 1.5f) * rowHeight;
    if (ImGui::BeginTable("##kernels", 3,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                              ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit,
                          ImVec2(0, height))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("kernel");
      // The signature and the target share what the name leaves.
      ImGui::TableSetupColumn("signature", ImGuiTableColumnFlags_WidthStretch, 1.0f);
      ImGui::TableSetupColumn("target", ImGuiTableColumnFlags_WidthStretch, 0.7f);
      ImGui::TableHeadersRow();
      for (size_t k = 0; k < kernels.size(); ++k) {
        const Kernel &kernel = kernels[k];
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::PushID(static_cast<int>(k));
        if (!kernel.launchable)
          ImGui::PushStyleColor(ImGuiCol_Text, colors::dim());
        if (ImGui::Selectable(kernel.qualifiedName().c_str(),
                              studio.selectedKernel() == static_cast<int>(k),
                              ImGuiSelectableFlags_SpanAllColumns))
          studio.selectKernel(static_cast<int>(k));
        if (!kernel.launchable)
          ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          ImGui::Text("object %s", kernel.object.c_str());
          if (kernel.line)
            ImGui::Text("defined at line %u", kernel.line);
          if (!kernel.launchable)
            ImGui::TextColored(colors::error(), "%s", kernel.why.c_str());
          ImGui::EndTooltip();
        }
        if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0) && kernel.line)
          studio.passes().showSourceLine(kernel.line);
        ImGui::PopID();
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(kernel.signature.c_str());
        helpTooltip(kernel.signature.c_str());
        ImGui::TableSetColumnIndex(2);
        std::string otherTriple = studio.otherTripleNote(k);
        if (!otherTriple.empty()) {
          ImGui::TextColored(colors::error(), "%s", kernel.triple.c_str());
          helpTooltip(otherTriple.c_str());
        } else if (kernel.dispatchAddress.empty()) {
          ImGui::TextColored(colors::dim(), "local");
        } else {
          ImGui::TextColored(colors::dim(), "dispatch %s", kernel.dispatchAddress.c_str());
          helpTooltip(("dispatched to " + kernel.dispatchAddress).c_str());
        }
      }
      ImGui::EndTable();
    }
    if (!studio.kernelsNote().empty())
      ImGui::TextColored(colors::dim(), "%s", studio.kernelsNote().c_str());
  }
}

/// The selected kernel's inputs and the launch buttons.
void drawInputs(Studio &studio, StudioView::State &state) {
  ExecutorModel &executor = studio.executor();
  const std::vector<Kernel> &kernels = studio.kernels();
  int selected = studio.selectedKernel();
  if (selected >= 0 && selected < static_cast<int>(kernels.size())) {
    const Kernel &kernel = kernels[selected];
    ImGui::Separator();
    ImGui::TextColored(colors::accent(), "Inputs of %s", kernel.qualifiedName().c_str());
    if (!kernel.launchable) {
      ImGui::PushStyleColor(ImGuiCol_Text, colors::error());
      ImGui::TextWrapped("cannot launch: %s", kernel.why.c_str());
      ImGui::PopStyleColor();
    }
    // Compiled for another architecture than the executor's: one click
    // re-runs the pipeline with the target compiled for the executor.
    std::string otherTriple = studio.otherTripleNote(static_cast<size_t>(selected));
    if (!otherTriple.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, colors::error());
      ImGui::TextWrapped("@%s is %s", kernel.module.c_str(), otherTriple.c_str());
      ImGui::PopStyleColor();
      std::string label = "Re-run for " + executor.executorTriple();
      if (ImGui::Button(label.c_str()))
        studio.rerunForExecutorTriple(static_cast<size_t>(selected));
      state.probe("rerun-for-executor-triple", true);
      helpTooltip("sets catalyst.target.triple of this target to the executor's "
                  "and re-runs the pipeline (the edit bar's Save .mlir writes the reproducer)");
    }
    for (size_t a = 0; a < kernel.inputs.size(); ++a)
      if (kernel.inputs[a].supported)
        inputEditor(studio, static_cast<size_t>(selected), a);
    if (kernel.inputs.empty())
      ImGui::TextColored(colors::dim(), "no arguments");
    bool enabled = executor.canLaunch() && kernel.launchable;
    ImGui::BeginDisabled(!enabled);
    if (ImGui::Button("Launch  (F5)"))
      studio.launch(static_cast<size_t>(selected), false);
    state.probe("launch", enabled);
    sameLineOrWrap(buttonWidth("Launch async"));
    if (ImGui::Button("Launch async"))
      studio.launch(static_cast<size_t>(selected), true);
    state.probe("launch-async", enabled);
    ImGui::EndDisabled();
    // Under a debugger: a session of its own (no connection needed).
    bool debuggable = kernel.launchable && executor.canLaunchUnderDebugger();
    ImGui::BeginDisabled(!debuggable);
    sameLineOrWrap(buttonWidth("Launch under debugger"));
    if (ImGui::Button("Launch under debugger"))
      studio.launchUnderDebugger(static_cast<size_t>(selected));
    state.probe("launch-debugger", debuggable);
    ImGui::EndDisabled();
    helpTooltip("Launches on a session of its own that waits for a debugger "
                "(executor-server --debug-wait: a local one, or the connected "
                "remote executor), and shows and copies the gdb and lldb "
                "commands that attach to it and stop in the kernel.");
    if (!executor.canLaunch()) {
      sameLineOrWrap(ImGui::CalcTextSize("connect to launch").x);
      ImGui::TextColored(colors::dim(), "connect to launch");
    }
  }
}

/// What a debug launch is doing, as its status cell and the panel say it.
std::string debugPhaseText(const DebugLaunch &d) {
  switch (d.phase) {
  case DebugLaunch::Phase::Starting:
    return "starting its session";
  case DebugLaunch::Phase::Waiting:
    return d.pid ? "waiting for a debugger (pid " + std::to_string(d.pid) + ")"
                 : "waiting for a debugger";
  case DebugLaunch::Phase::Attached:
    return "attached (pid " + std::to_string(d.pid) + ")";
  default:
    return debugPhaseName(d.phase);
  }
}

/// A launch under a debugger in flight: its state, and the commands that
/// attach gdb or lldb to its session (the gdb one copied once it is known).
void drawDebugLaunch(Studio &studio, StudioView::State &state) {
  const DebugLaunch &d = studio.executor().debugLaunch();
  if (d.phase == DebugLaunch::Phase::None || d.phase == DebugLaunch::Phase::Finished)
    return;
  const LaunchRecord *r = studio.executor().findLaunch(d.launchId);
  ImGui::Separator();
  ImGui::TextColored(colors::accent(), "Debugging launch #%llu %s",
                     static_cast<unsigned long long>(d.launchId),
                     r ? r->label.c_str() : "");
  ImVec4 color = d.phase == DebugLaunch::Phase::Attached ? colors::ok() : colors::warning();
  std::string phase = debugPhaseText(d);
  ImGui::TextColored(color, "%s", phase.c_str());
  state.probeText("debug-phase", phase, ImGui::GetContentRegionAvail().x);
  if (d.gdbCommand.empty())
    return;
  static uint64_t copied = 0; // the launch whose gdb command was copied
  if (copied != d.launchId) {
    copied = d.launchId;
    ImGui::SetClipboardText(d.gdbCommand.c_str());
  }
  ImGui::PushStyleColor(ImGuiCol_Text, colors::dim());
  if (d.local)
    ImGui::TextWrapped("Attach on this host (the gdb command is on the clipboard):");
  else
    ImGui::TextWrapped("Run on %s (it waits only if its executor-server runs with "
                       "--debug-wait):",
                       d.host.c_str());
  ImGui::PopStyleColor();
  auto command = [&](const char *name, const std::string &text) {
    ImGui::PushID(name);
    if (ImGui::SmallButton("copy"))
      ImGui::SetClipboardText(text.c_str());
    state.probe(std::string("copy-debug-") + name);
    ImGui::SameLine();
    ImGui::TextColored(colors::dim(), "%s", name);
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    state.probeText(std::string("debug-") + name, text, ImGui::GetContentRegionAvail().x);
    ImGui::PopID();
  };
  command("gdb", d.gdbCommand);
  command("lldb", d.lldbCommand);
  if (!studio.debugBuild())
    ImGui::TextColored(colors::dim(), "turn on \"debug build\" for the .mlir lines");
}

/// The launches' title, its clear button, and the latency of those done:
/// median and last, and a plot over the session.
void drawLatency(ExecutorModel &executor, StudioView::State &state) {
  const std::vector<LaunchRecord> &launches = executor.launches();
  std::vector<double> latencies;
  for (const LaunchRecord &r : launches)
    if (r.status == LaunchRecord::Status::Done)
      latencies.push_back(r.latencyMs);
  ImGui::TextColored(colors::accent(), "Launches");
  ImGui::SameLine(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 2.5f +
                  ImGui::GetCursorPosX() - ImGui::GetStyle().ItemSpacing.x);
  if (ImGui::SmallButton("clear"))
    executor.clearLaunches();
  if (!latencies.empty())
    // On a line of its own: beside the title it ran under the button in a
    // narrow panel.
    ImGui::TextColored(colors::dim(), "%zu done, median %.3f ms, last %.3f ms",
                       latencies.size(), median(latencies), latencies.back());
  if (latencies.size() >= 2) {
    // Latency over the session's launches.
    std::vector<float> series(latencies.begin(), latencies.end());
    float top = *std::max_element(series.begin(), series.end());
    char overlay[64];
    std::snprintf(overlay, sizeof(overlay), "latency, max %.3f ms", top);
    ImGui::PlotLines("##latency", series.data(), static_cast<int>(series.size()), 0, overlay,
                     0.0f, top * 1.1f,
                     ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 3));
    state.probe("latency-plot");
  }
}

/// A launch's status cell.
void drawLaunchStatus(const LaunchRecord &r, const DebugLaunch &debug) {
  if (r.status == LaunchRecord::Status::Running && debug.launchId == r.id &&
      debug.phase != DebugLaunch::Phase::Finished) {
    ImGui::TextColored(debug.phase == DebugLaunch::Phase::Attached ? colors::ok()
                                                                   : colors::warning(),
                       "%s", debugPhaseText(debug).c_str());
    return;
  }
  switch (r.status) {
  case LaunchRecord::Status::Queued:
    ImGui::TextColored(colors::dim(), "queued");
    break;
  case LaunchRecord::Status::Running:
    ImGui::TextColored(colors::changed(), "running");
    break;
  case LaunchRecord::Status::Done:
    ImGui::TextColored(colors::ok(), "done");
    break;
  case LaunchRecord::Status::Failed:
    ImGui::TextColored(colors::error(), "failed");
    break;
  }
}

/// A launch's time cell, with what it took in its tooltip.
void drawLaunchTime(const LaunchRecord &r) {
  if (r.status != LaunchRecord::Status::Done && r.status != LaunchRecord::Status::Failed)
    return;
  ImGui::Text("%.3f", r.latencyMs);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text("launch round trip %.3f ms", r.latencyMs);
    if (r.shipMs > 0)
      ImGui::Text("object shipped first in %.3f ms", r.shipMs);
    ImGui::Text("inputs: %s", r.inputsSummary.empty() ? "none" : r.inputsSummary.c_str());
    ImGui::EndTooltip();
  }
}

/// A failed launch's results cell: its error (a crash's first line; its
/// frames are above the table).
void drawLaunchError(const LaunchRecord &r) {
  const std::string &error = r.error;
  std::string shown = r.crashFrames.empty() ? error : error.substr(0, error.find('\n'));
  ImGui::PushStyleColor(ImGuiCol_Text, colors::error());
  ImGui::TextWrapped("%s", shown.c_str());
  ImGui::PopStyleColor();
  if (!r.crashFrames.empty())
    ImGui::TextColored(colors::dim(), "%zu frames: see the backtrace above",
                       r.crashFrames.size());
}

/// A launch's results cell: buttons that open the inspector on each input
/// and result (wrapping inside the cell), then each result's values.
void drawLaunchResults(StudioView::State &state, const LaunchRecord &r, bool newest) {
  ImGui::PushID(static_cast<int>(r.id));
  float cellRight = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  bool firstButton = true;
  auto button = [&](bool input, size_t i) {
    std::string label = (input ? "in" : "out") + std::to_string(i);
    float width = ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
    if (!firstButton &&
        ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= cellRight)
      ImGui::SameLine();
    firstButton = false;
    if (ImGui::SmallButton(label.c_str()))
      inspect(state, r.id, input, static_cast<int>(i));
    if (newest)
      state.probe((input ? "inspect-in-" : "inspect-out-") + std::to_string(i));
  };
  for (size_t i = 0; i < r.inputs.size(); ++i)
    button(true, i);
  for (size_t i = 0; i < r.results.size(); ++i)
    button(false, i);
  ImGui::PopID();
  if (r.results.empty())
    ImGui::TextColored(colors::dim(), "no results");
  for (size_t i = 0; i < r.results.size(); ++i) {
    const ElementType &element =
        i < r.resultTypes.size() ? r.resultTypes[i].element : ElementType();
    std::string values = formatValues(r.results[i], element, 16);
    ImGui::TextUnformatted(values.c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::Text("result %zu: %s, shape %s", i,
                  i < r.resultTypes.size() ? r.resultTypes[i].type.c_str() : "?",
                  formatShape(r.results[i].sizes).c_str());
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 50);
      ImGui::TextUnformatted(formatValues(r.results[i], element, 512).c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
}

/// One row of the launch table.
void drawLaunchRow(StudioView::State &state, const LaunchRecord &r, bool newest,
                   const DebugLaunch &debug) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::Text("%llu", static_cast<unsigned long long>(r.id));
  ImGui::TableSetColumnIndex(1);
  std::string label = r.label + (r.async ? " (async)" : r.debug ? " (debugger)" : "");
  ImGui::TextUnformatted(label.c_str());
  helpTooltip(label.c_str());
  ImGui::TableSetColumnIndex(2);
  drawLaunchStatus(r, debug);
  ImGui::TableSetColumnIndex(3);
  drawLaunchTime(r);
  ImGui::TableSetColumnIndex(4);
  if (r.status == LaunchRecord::Status::Failed)
    drawLaunchError(r);
  else if (r.status == LaunchRecord::Status::Done)
    drawLaunchResults(state, r, newest);
}

/// The launches: latency, the newest one's crash frames, and a table of
/// each launch (newest first) with its results, which open the inspector.
void drawLaunches(Studio &studio, StudioView::State &state) {
  ExecutorModel &executor = studio.executor();
  ImGui::Separator();
  drawLatency(executor, state);
  const std::vector<LaunchRecord> &launches = executor.launches();
  // The newest launch crashed: its backtrace, each kernel frame of this
  // document a link to its line in the IR view's source.
  if (!launches.empty() && !launches.back().crashFrames.empty())
    drawCrashFrames(studio, state, launches.back());
  float logHeight = std::max(ImGui::GetTextLineHeightWithSpacing() * 6,
                             ImGui::GetContentRegionAvail().y * 0.38f);
  float tableHeight = std::max(ImGui::GetTextLineHeightWithSpacing() * 4,
                               ImGui::GetContentRegionAvail().y - logHeight -
                                   ImGui::GetTextLineHeightWithSpacing() * 1.5f);
  if (!ImGui::BeginTable("##launches", 5,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                             ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit |
                             ImGuiTableFlags_Resizable,
                         ImVec2(0, tableHeight)))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#");
  // The kernel's name and the results share the width; the buttons that
  // open the inspector wrap inside their column.
  ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn("status");
  ImGui::TableSetupColumn("ms");
  ImGui::TableSetupColumn("results", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableHeadersRow();
  for (auto it = launches.rbegin(); it != launches.rend(); ++it)
    drawLaunchRow(state, *it, &*it == &launches.back(), executor.debugLaunch());
  ImGui::EndTable();
}

/// The log, the server's lines included.
void drawLog(ExecutorModel &executor, StudioView::State &state) {
  ImGui::TextColored(colors::accent(), "Log");
  ImGui::BeginChild("##log", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
  const std::deque<LogEntry> &log = executor.log();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(log.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const LogEntry &e = log[static_cast<size_t>(i)];
      ImGui::TextColored(colors::dim(), "%7.2f", e.seconds);
      ImGui::SameLine();
      ImVec4 color = e.level == LogEntry::Level::Error    ? colors::error()
                     : e.level == LogEntry::Level::Server ? colors::server()
                                                          : ImVec4(0.85f, 0.87f, 0.9f, 1);
      if (e.level == LogEntry::Level::Server) {
        ImGui::TextColored(colors::dim(), "server");
        ImGui::SameLine();
      }
      ImGui::TextColored(color, "%s", e.text.c_str());
      helpTooltip(e.text.c_str());
    }
  if (executor.logGeneration() != state.lastLogGen) {
    state.lastLogGen = executor.logGeneration();
    ImGui::SetScrollHereY(1.0f);
  }
  ImGui::EndChild();
}
} // namespace

void drawExecutorPanel(Studio &studio, StudioView::State &state) {
  // Folds the column into a strip (the IR panes get its width).
  if (ImGui::SmallButton(">##fold-executor"))
    state.settings->executorFolded = 1;
  state.probe("fold-executor");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("fold the executor panel into a strip at the window's edge");
  ImGui::SameLine();
  drawConnection(studio, state);
  drawKernels(studio);
  drawInputs(studio, state);
  drawDebugLaunch(studio, state);
  drawLaunches(studio, state);
  drawLog(studio.executor(), state);
}

float executorStripWidth() {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.x * 2;
}

void drawExecutorStrip(Studio &studio, StudioView::State &state) {
  ExecutorState s = studio.executor().state();
  bool open = ImGui::SmallButton("<##unfold-executor");
  state.probe("unfold-executor");
  // "executor" down the strip in its state's colour, a click on it opens
  // the panel too.
  ImGui::BeginGroup();
  for (char c : std::string("executor"))
    ImGui::TextColored(stateColor(s), " %c", c);
  ImGui::EndGroup();
  open |= ImGui::IsItemClicked();
  bool hovered = ImGui::IsItemHovered();
  size_t launches = studio.executor().launches().size();
  if (launches) {
    ImGui::TextColored(colors::dim(), "%zu", launches);
    hovered |= ImGui::IsItemHovered();
  }
  if (hovered || ImGui::IsWindowHovered())
    ImGui::SetTooltip("executor %s%s: click to open its panel", stateName(s),
                      launches ? (", " + std::to_string(launches) + " launch(es)").c_str() : "");
  if (open)
    state.settings->executorFolded = 0;
}

} // namespace executor_studio::gui
