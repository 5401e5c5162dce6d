//===- StudioView.cpp - layout, toolbar, diagnostics, keyboard ------------===//
#include "Panels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "llvm/ADT/StringRef.h"

namespace executor_studio::gui {

namespace {
/// A draggable bar between panels; `value` grows by `sign` times the drag.
void splitter(const char *id, bool vertical, float length, float &value, float sign,
              float min, float max) {
  const float thickness = 6;
  ImGui::InvisibleButton(id, vertical ? ImVec2(thickness, length) : ImVec2(length, thickness));
  ImGuiIO &io = ImGui::GetIO();
  if (ImGui::IsItemActive())
    value += sign * (vertical ? io.MouseDelta.x : io.MouseDelta.y);
  value = std::clamp(value, min, std::max(min, max));
  bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
  if (hot)
    ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ImU32 color = hot ? IM_COL32(90, 130, 200, 255) : IM_COL32(45, 50, 60, 255);
  if (vertical)
    ImGui::GetWindowDrawList()->AddLine(ImVec2((a.x + b.x) / 2, a.y),
                                        ImVec2((a.x + b.x) / 2, b.y), color, 2);
  else
    ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, (a.y + b.y) / 2),
                                        ImVec2(b.x, (a.y + b.y) / 2), color, 2);
}

void drawToolbar(Studio &studio, StudioView::State &state) {
  PipelineModel &passes = studio.passes();
  ImGui::TextColored(colors::accent(), "executor-studio");
  ImGui::SameLine();
  // The path field gives way on narrow windows.
  ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 26,
                                   ImGui::GetContentRegionAvail().x * 0.3f));
  bool open = inputString("##open", state.openPath, ImGuiInputTextFlags_EnterReturnsTrue,
                          "path/to/program.mlir");
  ImGui::SameLine();
  open |= ImGui::Button("Open");
  if (open && !state.openPath.empty() && studio.open(state.openPath))
    state.settings->lastFile = studio.document().path();
  ImGui::SameLine();
  ImGui::BeginDisabled(!studio.document().hasFile());
  if (ImGui::Button("Reload"))
    studio.reload();
  ImGui::EndDisabled();
  ImGui::SameLine();
  bool autoReload = studio.autoReload();
  if (ImGui::Checkbox("reload on change", &autoReload)) {
    studio.setAutoReload(autoReload);
    state.settings->autoReload = autoReload;
  }
  float buttons = ImGui::CalcTextSize("RecordDefault").x + ImGui::GetStyle().FramePadding.x * 4 +
                  ImGui::GetStyle().ItemSpacing.x * 2;
  // The pipeline field on the same line when it gets a useful width there,
  // else on a line of its own (nothing is cut off at the window's edge).
  float pipelineLabel = ImGui::CalcTextSize("| pipeline").x + ImGui::GetStyle().ItemSpacing.x * 2;
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x - pipelineLabel - buttons < ImGui::GetFontSize() * 14)
    ImGui::NewLine();
  ImGui::TextColored(colors::dim(), "| pipeline");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(100.0f, ImGui::GetContentRegionAvail().x - buttons));
  bool record = inputString("##pipeline", state.pipelineEdit, ImGuiInputTextFlags_EnterReturnsTrue,
                            "the default pipeline (type one: builtin.module(cse,canonicalize))");
  if (ImGui::IsItemHovered() && !studio.recordedPipeline().empty()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 60);
    ImGui::Text("recorded: %s", studio.recordedPipeline().c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::SameLine();
  record |= ImGui::Button("Record");
  if (record) {
    studio.setPipelineText(state.pipelineEdit);
    state.settings->pipeline = studio.pipelineText();
  }
  ImGui::SameLine();
  if (ImGui::Button("Default")) {
    state.pipelineEdit.clear();
    studio.setPipelineText("");
    state.settings->pipeline.clear();
  }

  // Stepping.
  ImGui::BeginDisabled(passes.passCount() == 0);
  if (ImGui::Button("|<"))
    passes.first();
  ImGui::SameLine();
  if (ImGui::Button("< prev"))
    passes.previous();
  ImGui::SameLine();
  if (ImGui::Button("next >"))
    passes.next();
  state.probe("next-pass");
  ImGui::SameLine();
  if (ImGui::Button(">|"))
    passes.last();
  ImGui::SameLine();
  if (ImGui::Button("next changed"))
    passes.nextChanged();
  ImGui::EndDisabled();
  ImGui::SameLine();
  drawGraphToggle(studio, state);
  ImGui::SameLine();
  if (passes.selected() >= 0) {
    const Snapshot &s = passes.pass(passes.selected());
    if (passes.isNested(passes.selected()))
      ImGui::TextColored(colors::dim(), " in pass %u/%zu, step %u", // of a target
                         passes.number(passes.parentOf(passes.selected())),
                         passes.passCount(), passes.number(passes.selected()));
    else
      ImGui::TextColored(colors::dim(), " pass %u/%zu", passes.number(passes.selected()),
                         passes.passCount());
    ImGui::SameLine();
    ImGui::TextUnformatted(s.pass.c_str());
    ImGui::SameLine();
    ImGui::TextColored(colors::dim(), "on %s", s.anchor.c_str());
  }
  // The key hint when it fits, else a "keys" label with it as tooltip.
  static const char *kKeys =
      "j/k or arrows step, n next changed, / search, e edit, ]/[ next line linked, F5 launch";
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(kKeys).x + ImGui::GetFontSize() * 4) {
    ImGui::TextColored(colors::dim(), "   keys: %s", kKeys);
  } else {
    ImGui::TextColored(colors::dim(), " keys");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", kKeys);
  }
}

void keyboard(Studio &studio, StudioView::State &state) {
  ImGuiIO &io = ImGui::GetIO();
  PipelineModel &passes = studio.passes();
  if (state.launchKey >= 0 && ImGui::IsKeyPressed(state.launchKey, false))
    studio.launchSelected(false);
  if (io.WantTextInput)
    return;
  for (ImWchar c : io.InputQueueCharacters) {
    switch (c) {
    case 'j':
      passes.next();
      break;
    case 'k':
      passes.previous();
      break;
    case 'n':
      passes.nextChanged();
      break;
    case 'N':
      passes.previousChanged();
      break;
    case 'g':
      passes.first();
      break;
    case 'G':
      passes.last();
      break;
    case '/':
      state.focusSearch = true;
      break;
    case 'e':
      if (!state.editing && passes.selected() >= 0)
        beginEdit(studio, state, passes.selected());
      break;
    case ']':
      moveLinkedCursor(state, 1);
      break;
    case '[':
      moveLinkedCursor(state, -1);
      break;
    default:
      break;
    }
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)))
    passes.next();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)))
    passes.previous();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home)))
    passes.first();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End)))
    passes.last();
  float page = ImGui::GetIO().DisplaySize.y * 0.6f;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown)))
    state.scrollDelta += page;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp)))
    state.scrollDelta -= page;
}

void drawStatusBar(Studio &studio) {
  ImGui::Separator();
  if (studio.recordingInProgress()) {
    ImGui::TextColored(colors::warning(), "recording...");
    ImGui::SameLine();
  }
  ImGui::TextColored(studio.statusIsError() ? colors::error() : colors::dim(), "%s",
                     studio.status().c_str());
  ImGui::SameLine();
  char right[128];
  std::snprintf(right, sizeof(right), "executor %s   %.0f fps",
                stateName(studio.executor().state()), ImGui::GetIO().Framerate);
  float w = ImGui::CalcTextSize(right).x;
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - w));
  ImGui::TextColored(colors::dim(), "%s", right);
}
} // namespace

void drawDiagnostics(Studio &studio, StudioView::State &state) {
  PipelineModel &passes = studio.passes();
  const std::vector<DiagnosticItem> &items = passes.diagnostics();
  size_t errors = 0, warnings = 0;
  for (const DiagnosticItem &d : items) {
    if (d.isNote)
      continue;
    errors += d.severity == RecordedDiagnostic::Severity::Error;
    warnings += d.severity == RecordedDiagnostic::Severity::Warning;
  }
  ImGui::TextColored(colors::accent(), "Diagnostics");
  ImGui::SameLine();
  if (items.empty()) {
    ImGui::TextColored(colors::dim(), "none");
    return;
  }
  ImGui::TextColored(errors ? colors::error() : colors::dim(), "%zu error(s), %zu warning(s)",
                     errors, warnings);
  ImGui::SameLine();
  ImGui::TextColored(colors::dim(), "  click one to see its line");
  if (!ImGui::BeginTable("##diagnostics", 4,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                             ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit |
                             ImGuiTableFlags_Resizable))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("severity");
  ImGui::TableSetupColumn("where");
  ImGui::TableSetupColumn("pass");
  ImGui::TableSetupColumn("message", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < items.size(); ++i) {
    const DiagnosticItem &d = items[i];
    ImGui::TableNextRow();
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableSetColumnIndex(0);
    ImVec4 color = d.isNote ? colors::dim()
                   : d.severity == RecordedDiagnostic::Severity::Error   ? colors::error()
                   : d.severity == RecordedDiagnostic::Severity::Warning ? colors::warning()
                                                                          : colors::dim();
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    std::string label = std::string(d.isNote ? "  note" : severityName(d.severity));
    if (ImGui::Selectable(label.c_str(), false,
                          ImGuiSelectableFlags_SpanAllColumns))
      passes.jumpTo(d);
    ImGui::PopStyleColor();
    ImGui::TableSetColumnIndex(1);
    std::string file = d.file;
    size_t slash = file.rfind('/');
    if (slash != std::string::npos)
      file = file.substr(slash + 1);
    if (d.line)
      ImGui::Text("%s:%u:%u", file.c_str(), d.line, d.column);
    else
      ImGui::TextColored(colors::dim(), "%s", file.empty() ? "-" : file.c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::TextColored(colors::dim(), "%s",
                       d.snapshot >= 0 ? passes.positionName(d.snapshot).c_str()
                       : d.pass.empty() ? "parser" : d.pass.c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(d.message.c_str());
    ImGui::PopID();
  }
  ImGui::EndTable();
}

StudioView::StudioView(Studio &studio, Settings &settings)
    : studio(studio), settings(settings), state(std::make_unique<State>()) {
  state->settings = &settings;
  PipelineModel &passes = studio.passes();
  if (std::optional<ViewMode> mode = viewModeNamed(settings.viewMode))
    passes.setViewMode(*mode);
  LineOptions options;
  options.normaliseSsaNames = settings.normaliseSsaNames;
  options.hideLocations = settings.hideLocations;
  passes.setLineOptions(options);
  passes.setStructural(settings.structuralDiff);
  passes.setHideUnchanged(settings.hideUnchanged);
  passes.setWholeFile(settings.wholeFile);
  studio.setAutoReload(settings.autoReload);
  studio.setPrintLocations(settings.printLocations);
  state->address = settings.executorAddress;
  state->openPath = studio.document().hasFile() ? studio.document().path() : settings.lastFile;
  state->pipelineEdit = studio.pipelineText();
}

StudioView::~StudioView() = default;

void StudioView::setLaunchKey(int keyIndex) { state->launchKey = keyIndex; }

void StudioView::draw() {
  studio.update();
  state->probes.clear();
  if (studio.document().hasFile() && state->openPath.empty())
    state->openPath = studio.document().path();
  keyboard(studio, *state);
  PipelineModel &passes = studio.passes();
  if (passes.selected() != state->lastSelected) {
    state->lastSelected = passes.selected();
    state->scrollPassList = true;
  }

  const ImGuiViewport *viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  // The renderer clears to the window colour: no full-screen fill on top.
  ImGui::SetNextWindowBgAlpha(0);
  ImGui::Begin("executor-studio", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  drawToolbar(studio, *state);
  drawRecoveryBanner(studio, *state);

  ImVec2 avail = ImGui::GetContentRegionAvail();
  float status = ImGui::GetFrameHeightWithSpacing() + 4;
  float gap = 6;
  // The diagnostics panel collapses to one line when it has nothing.
  bool noDiagnostics = passes.diagnostics().empty();
  settings.diagnosticsHeight =
      std::clamp(settings.diagnosticsHeight, 60.0f, std::max(60.0f, avail.y * 0.6f));
  float diagnosticsHeight =
      noDiagnostics ? ImGui::GetFrameHeightWithSpacing() : settings.diagnosticsHeight;
  float mainHeight = std::max(100.0f, avail.y - diagnosticsHeight - status - gap -
                                          ImGui::GetStyle().ItemSpacing.y * 2);
  // The IR panes get the width. The pass list is as wide as its names
  // need and the executor column 15% of the window (each at its minimum,
  // or where the user dragged it), together at most 47% of it; dragged
  // ones may take more, leaving the IR 40% and at least 520 px where the
  // window allows. In a window under 1280 px wide the executor column is
  // folded into a strip at its right edge until the user opens it (or
  // always, or never: Settings::executorFolded), and the pass list takes
  // at most 27% of the width (long names are cut in their middle, the
  // times give way). What the user dragged or folded is kept in the
  // settings.
  const float minPassList = 150, minExecutor = 230;
  bool executorFolded =
      settings.executorFolded == 1 || (settings.executorFolded < 0 && avail.x < 1280);
  float autoRoom =
      std::max(minPassList + minExecutor, avail.x * (avail.x < 1280 ? 0.42f : 0.47f));
  float sideRoom = std::max(minPassList + minExecutor,
                            avail.x - std::max(avail.x * 0.4f, 520.0f));
  float executorWidth = settings.executorWidth > 0
                            ? settings.executorWidth
                            : std::clamp(avail.x * 0.15f, 240.0f, 340.0f);
  executorWidth = std::clamp(executorWidth, minExecutor, std::max(minExecutor, avail.x * 0.5f));
  float executorColumn = executorFolded ? executorStripWidth() : executorWidth;
  float passListWidth =
      settings.passListWidth > 0
          ? settings.passListWidth
          : std::min(passListWidthNeeded(passes),
                     std::max({minPassList, passListWidthLeast(),
                               executorFolded ? avail.x * 0.27f : autoRoom - executorColumn}));
  passListWidth = std::clamp(passListWidth, minPassList, std::max(minPassList, avail.x * 0.4f));
  if (!executorFolded && passListWidth + executorWidth > sideRoom) {
    float scale = sideRoom / (passListWidth + executorWidth);
    passListWidth = std::max(minPassList, passListWidth * scale);
    executorWidth = std::max(minExecutor, executorWidth * scale);
  }
  if (!executorFolded)
    executorColumn = executorWidth;
  float passListBefore = passListWidth, executorBefore = executorWidth;

  // Docked panels share the IR column's height: the op history, the
  // inspector and the source file side by side under the IR view, which
  // keeps its width (and the executor panel, with the launch the inspector
  // shows, stays whole beside them). None floats over anything.
  bool history = !state->historyLocations.empty();
  bool inspector = state->inspectLaunch != 0;
  bool source = !state->sourcePath.empty();
  float spacing = ImGui::GetStyle().ItemSpacing.y;
  auto remember = [&](const char *name) {
    state->panels[name] = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
  };
  state->panels.clear();

  ImGui::BeginChild("##passlist", ImVec2(passListWidth, mainHeight), true);
  drawPassList(studio, *state);
  ImGui::EndChild();
  remember("passes");
  ImGui::SameLine(0, 0);
  splitter("##split-passes", true, mainHeight, passListWidth, 1, minPassList, avail.x * 0.4f);
  state->probe("split-passes");
  ImGui::SameLine(0, 0);
  float center = ImGui::GetContentRegionAvail().x - executorColumn - gap;
  ImGui::BeginGroup();
  int docked = history + inspector + source;
  float irHeight =
      docked ? std::floor(std::max(ImGui::GetFrameHeightWithSpacing() * 8, mainHeight * 0.55f))
             : mainHeight;
  ImGui::BeginChild("##center", ImVec2(std::max(100.0f, center), irHeight), false);
  drawIrAndGraph(studio, *state);
  ImGui::EndChild();
  remember("ir");
  if (docked) {
    float dockedWidth = std::floor((std::max(100.0f, center) -
                                    ImGui::GetStyle().ItemSpacing.x * (docked - 1)) / docked);
    float dockedHeight = mainHeight - irHeight - spacing;
    bool first = true;
    auto dock = [&](bool open, const char *id, auto draw) {
      if (!open)
        return;
      if (!first)
        ImGui::SameLine();
      first = false;
      ImGui::BeginChild(id, ImVec2(dockedWidth, dockedHeight), true);
      draw();
      ImGui::EndChild();
    };
    dock(history, "##ophistory", [&] { drawOpHistory(studio, *state); });
    dock(inspector, "##inspector", [&] { drawInspector(studio, *state); });
    dock(source, "##sourcefile", [&] { drawSourceFile(*state); });
  }
  ImGui::EndGroup();
  ImGui::SameLine(0, 0);
  if (executorFolded) {
    ImGui::Dummy(ImVec2(gap, mainHeight));
  } else {
    splitter("##split-executor", true, mainHeight, executorWidth, -1, minExecutor,
             avail.x * 0.5f);
    state->probe("split-executor");
  }
  ImGui::SameLine(0, 0);
  ImGui::BeginChild("##executor", ImVec2(0, mainHeight), true);
  if (executorFolded)
    drawExecutorStrip(studio, *state);
  else
    drawExecutorPanel(studio, *state);
  ImGui::EndChild();
  remember("executor");
  // A drag is remembered (the settings file keeps it).
  if (passListWidth != passListBefore)
    settings.passListWidth = passListWidth;
  if (executorWidth != executorBefore)
    settings.executorWidth = executorWidth;

  if (noDiagnostics) {
    drawDiagnostics(studio, *state);
  } else {
    splitter("##split-diagnostics", false, avail.x, settings.diagnosticsHeight, -1, 60,
             avail.y * 0.6f);
    state->probe("split-diagnostics");
    ImGui::BeginChild("##diagnostics", ImVec2(0, settings.diagnosticsHeight), true);
    drawDiagnostics(studio, *state);
    ImGui::EndChild();
  }
  drawStatusBar(studio);
  ImGui::End();
}

bool panelHeader(StudioView::State &state, const char *name, const std::string &title) {
  ImVec2 at = ImGui::GetWindowPos();
  state.panels[name] = {at, ImVec2(at.x + ImGui::GetWindowWidth(), at.y + ImGui::GetWindowHeight())};
  float close = ImGui::GetFrameHeight();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - close -
                         ImGui::GetStyle().ItemSpacing.x);
  ImGui::TextColored(colors::accent(), "%s", title.c_str());
  ImGui::PopTextWrapPos();
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - close));
  std::string id = std::string("x##close-") + name;
  bool pressed = ImGui::SmallButton(id.c_str());
  state.probe(std::string("close-") + name);
  return pressed;
}

void StudioView::openInspector(uint64_t id, bool input, int index) {
  inspect(*state, id, input, index);
}

const std::string &StudioView::inspectorSummary() const { return state->inspectSummary; }

const std::string &StudioView::inspectorHover() const { return state->inspectHover; }

bool StudioView::openOpHistory(int position, unsigned line, std::string *why) {
  // (The words of the language server's op history, lsp/lib/OpHistory.cpp.)
  std::string name = studio.passes().shortName(position);
  auto fail = [&](const std::string &problem) {
    if (why)
      *why = problem;
    return false;
  };
  std::shared_ptr<const std::string> text = studio.passes().irAt(position);
  if (!text)
    return fail("there is no IR of " + name);
  TextLines lines = TextLines::prepare(*text);
  if (line == 0)
    return fail("lines are numbered from 1");
  if (line > lines.size())
    return fail("line " + std::to_string(line) + " is past the end of " + name + " (" +
                std::to_string(lines.size()) + " lines)");
  std::vector<SourceLocation> locations = findSourceLocations(lines.line(line - 1), &lines);
  if (locations.empty())
    return fail("line " + std::to_string(line) + " of " + name + " names no location: `" +
                std::string(llvm::StringRef(lines.line(line - 1)).trim()) + "`");
  gui::openOpHistory(studio, *state, std::move(locations), std::string(lines.line(line - 1)));
  return true;
}

bool StudioView::openSourceFile(const std::string &path, unsigned line) {
  std::optional<std::vector<std::string>> lines = readSourceLines(path);
  if (!lines)
    return false;
  state->sourcePath = path;
  state->sourceLines = std::move(*lines);
  state->sourceLine = line;
  state->sourceScroll = true;
  return true;
}

bool StudioView::panelBounds(const std::string &name, float &x0, float &y0, float &x1,
                             float &y1) const {
  auto it = state->panels.find(name);
  if (it == state->panels.end())
    return false;
  x0 = it->second.min.x;
  y0 = it->second.min.y;
  x1 = it->second.max.x;
  y1 = it->second.max.y;
  return true;
}

float StudioView::irPaneWidth() const { return state->irPaneWidth; }

bool StudioView::openOpHistoryAtFileLine(unsigned line, unsigned column, std::string *why) {
  std::string problem;
  std::shared_ptr<const std::string> input = studio.passes().irAt(kInputPosition);
  const Document &doc = studio.document();
  std::vector<SourceLocation> places =
      input ? findOpsAtFileLine(*input, doc.name(), doc.text(), line, column, problem)
            : std::vector<SourceLocation>();
  if (!input)
    problem = "there is no recording of " + doc.name();
  if (places.empty()) {
    if (why)
      *why = problem;
    return false;
  }
  llvm::StringRef text(doc.text());
  for (unsigned i = 1; i < line; ++i)
    text = text.split('\n').second;
  gui::openOpHistory(studio, *state, std::move(places), text.split('\n').first.str());
  return true;
}

bool StudioView::inspectorBounds(float &x0, float &y0, float &x1, float &y1) const {
  if (state->inspectSummary.empty())
    return false;
  x0 = state->inspectMin.x;
  y0 = state->inspectMin.y;
  x1 = state->inspectMax.x;
  y1 = state->inspectMax.y;
  return true;
}

void StudioView::editAndRerun(int pass, const std::string &text) {
  beginEdit(studio, *state, pass);
  state->editBuffer = text;
  studio.rerunFrom(pass, text);
  state->rerunPending = true;
}

bool StudioView::widgetCenter(const std::string &name, float &x, float &y) const {
  auto it = state->probes.find(name);
  if (it == state->probes.end())
    return false;
  x = it->second.center.x;
  y = it->second.center.y;
  return true;
}

bool StudioView::widgetRight(const std::string &name, float &right) const {
  auto it = state->probes.find(name);
  if (it == state->probes.end())
    return false;
  right = it->second.right;
  return true;
}

bool StudioView::widgetText(const std::string &name, std::string &text, float &room) const {
  auto it = state->probes.find(name);
  if (it == state->probes.end() || it->second.text.empty())
    return false;
  text = it->second.text;
  room = it->second.room;
  return true;
}

bool StudioView::widgetEnabled(const std::string &name) const {
  auto it = state->probes.find(name);
  return it != state->probes.end() && it->second.enabled;
}

void StudioView::setSearch(const std::string &text) {
  state->search = text;
  studio.passes().setSearch(text);
  studio.passes().nextHit();
}

unsigned StudioView::linkedSourceLine() const { return state->linkedLine; }

std::vector<unsigned> StudioView::linkedStepLines() const {
  llvm::ArrayRef<unsigned> lines = state->linkedMap.stepLines(state->linkedLine);
  return std::vector<unsigned>(lines.begin(), lines.end());
}

int StudioView::linkedStepCursor() const { return state->linkedCursor; }

void StudioView::scrollIrBy(float pixels) { state->scrollDelta += pixels; }
float StudioView::irScroll() const { return state->lastScroll; }
float StudioView::irScrollMax() const { return state->lastScrollMax; }
int StudioView::irRowsDrawn() const { return state->rowsDrawn; }
void StudioView::setDrawAllRows(bool all) { state->drawAllRows = all; }

} // namespace executor_studio::gui
