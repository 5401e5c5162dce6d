//===- LinkedView.cpp - the source beside a step, line by line linked -----===//
//
// As Compiler Explorer shows a source and its assembly: the document's
// `.mlir` on the left, the selected step's text (its MLIR, a kernel's LLVM
// IR or assembly) on the right, each source line and the lines it became
// in the same colour (core's mapSourceLines: `loc`, `!dbg`, `.loc`).
// Hovering a line on either side highlights its partners; a click keeps
// the highlight and scrolls the other side there; `]` and `[` go to the
// next and previous line the highlighted source line became.
//
//===----------------------------------------------------------------------===//
#include "Panels.h"

#include "ExecutorStudio/Pipeline/OpHistory.h"

#include <algorithm>
#include <cmath>

namespace executor_studio::gui {

namespace {
/// Eight colours that tell lines apart on the dark theme (Compiler
/// Explorer's idea: a colour per source line, cycled).
ImU32 linkColour(int rank, int alpha) {
  static const int rgb[8][3] = {{70, 130, 220}, {220, 150, 60}, {90, 180, 110},
                                {200, 90, 160}, {60, 180, 190}, {190, 170, 70},
                                {150, 110, 220}, {210, 100, 90}};
  const int *c = rgb[rank % 8];
  return IM_COL32(c[0], c[1], c[2], alpha);
}

/// The map of the selected step, computed once per text.
void refresh(Studio &studio, StudioView::State &state, int position) {
  PipelineModel &m = studio.passes();
  // With its locations (a recording with them is made for it when the
  // one shown has none): the link is read from them.
  std::shared_ptr<const std::string> text = studio.locatedText(position);
  const std::string &source = studio.document().text();
  if (text == state.linkedText && position == state.linkedPosition &&
      state.linkedSourceGen == studio.document().generation())
    return;
  state.linkedText = text;
  state.linkedPosition = position;
  state.linkedSourceGen = studio.document().generation();
  state.linkedStep = TextLines::prepare(text ? *text : std::string());
  state.linkedSource = TextLines::prepare(source);
  state.linkedMap = text ? mapSourceLines(*text, m.kindAt(position), studio.document().name())
                         : SourceLineMap();
  state.linkedLine = 0;
  state.linkedPinned = false;
  state.linkedCursor = -1;
  state.linkedShown = 0;
  // Another step starts at the top, beside the first source line it links
  // (a kernel's assembly beside the kernel, not the file's first comment).
  state.linkedScrollStep = 0;
  state.linkedScrollSource =
      state.linkedMap.sourceLines.empty() ? 0 : static_cast<int>(state.linkedMap.sourceLines.front()) - 1;
}

/// One side: its lines, each in its source line's colour, the highlighted
/// ones brighter; the line under the mouse (its source lines) in `hovered`.
/// `sourceSide`: the lines are the source's (numbered from 1).
void drawSide(StudioView::State &state, const char *id, const TextLines &lines, bool sourceSide,
              float width, float height, std::vector<unsigned> &hovered, int &clicked,
              int scrollTo) {
  const SourceLineMap &map = state.linkedMap;
  ImGui::BeginChild(id, ImVec2(width, height), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList *draw = ImGui::GetWindowDrawList();
  float lineHeight = std::floor(ImGui::GetTextLineHeight() + 3);
  float charW = characterWidth();
  if (scrollTo >= 0)
    ImGui::SetScrollY(std::max(0.0f, scrollTo * lineHeight - ImGui::GetWindowHeight() * 0.35f));
  int digits = static_cast<int>(std::log10(std::max<double>(lines.size(), 9))) + 1;
  float gutter = (digits + 1.5f) * charW;
  float rowWidth = std::max(ImGui::GetContentRegionAvail().x, gutter + charW * 80);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(lines.size()), lineHeight);
  ImVec2 mouse = ImGui::GetIO().MousePos;
  bool windowHovered = ImGui::IsWindowHovered();
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      ImVec2 p = ImGui::GetCursorScreenPos();
      // The source lines this line stands for.
      std::vector<unsigned> own;
      if (sourceSide) {
        if (map.rank(static_cast<unsigned>(i + 1)) >= 0)
          own.push_back(static_cast<unsigned>(i + 1));
      } else if (static_cast<size_t>(i) < map.sourceLinesOf.size()) {
        own = map.sourceLinesOf[static_cast<size_t>(i)];
      }
      bool lit = state.linkedLine && llvm::is_contained(own, state.linkedLine);
      if (!own.empty()) {
        int rank = map.rank(own.front());
        draw->AddRectFilled(p, ImVec2(p.x + rowWidth, p.y + lineHeight),
                            linkColour(rank, lit ? 150 : 55));
        if (lit)
          draw->AddRectFilled(p, ImVec2(p.x + 3, p.y + lineHeight), linkColour(rank, 255));
      }
      if (!sourceSide && i == state.linkedCursor)
        draw->AddRect(p, ImVec2(p.x + rowWidth, p.y + lineHeight), IM_COL32(255, 255, 255, 200));
      char number[16];
      std::snprintf(number, sizeof(number), "%*d", digits, i + 1);
      draw->AddText(ImVec2(p.x + charW * 0.5f, p.y + 1), colors::lineNumber(), number);
      std::string_view text = lines.line(static_cast<size_t>(i));
      draw->AddText(ImVec2(p.x + gutter, p.y + 1), colors::text(), text.data(),
                    text.data() + text.size());
      ImGui::Dummy(ImVec2(rowWidth, lineHeight));
      std::string probe =
          std::string(sourceSide ? "linked-source-" : "linked-step-") + std::to_string(i + 1);
      state.probe(probe);
      if (windowHovered && mouse.y >= p.y && mouse.y < p.y + lineHeight) {
        hovered = own;
        if (ImGui::IsMouseClicked(0))
          clicked = i;
      }
    }
  ImGui::EndChild();
}
} // namespace

bool linkedViewWanted(Studio &studio, const StudioView::State &state) {
  PipelineModel &m = studio.passes();
  if (m.selected() < 0 || m.viewMode() == ViewMode::Source)
    return false;
  SnapshotKind kind = m.kindAt(m.selected());
  // A diff of LLVM IR against assembly means nothing: linked instead.
  return state.linkedWanted || kind != SnapshotKind::MLIR;
}

void moveLinkedCursor(StudioView::State &state, int step) {
  llvm::ArrayRef<unsigned> lines = state.linkedMap.stepLines(state.linkedLine);
  if (lines.empty())
    return;
  auto at = std::find(lines.begin(), lines.end(), static_cast<unsigned>(state.linkedCursor));
  int index = at == lines.end() ? (step > 0 ? -1 : 0) : static_cast<int>(at - lines.begin());
  int n = static_cast<int>(lines.size());
  index = ((index + step) % n + n) % n;
  state.linkedCursor = static_cast<int>(lines[static_cast<size_t>(index)]);
  state.linkedScrollStep = state.linkedCursor;
}

void drawLinkedView(Studio &studio, StudioView::State &state) {
  PipelineModel &m = studio.passes();
  int position = m.selected();
  refresh(studio, state, position);
  const SourceLineMap &map = state.linkedMap;
  ImGui::TextColored(colors::accent(), "source: %s", studio.document().name().c_str());
  ImGui::SameLine();
  ImGui::TextColored(colors::dim(), " beside ");
  ImGui::SameLine();
  ImGui::TextColored(colors::accent(), "%s", m.positionName(position).c_str());
  if (studio.locating()) {
    ImGui::TextColored(colors::dim(), "linking the source: recording with locations...");
  } else if (map.sourceLines.empty()) {
    ImGui::TextColored(colors::warning(), "%s",
                       studio.locatingError().empty() ? "this step names no line of the source"
                                                      : studio.locatingError().c_str());
    if (!studio.printLocations()) {
      ImGui::SameLine();
      // The link is read from locations and a kernel's line table.
      if (ImGui::SmallButton("record with locations")) {
        studio.setPrintLocations(true);
        state.settings->printLocations = true;
      }
      state.probe("record-locations");
    }
  } else {
    ImGui::TextColored(colors::dim(),
                       "%zu source lines linked; hover or click a line, ] and [ step through "
                       "what it became",
                       map.sourceLines.size());
  }
  ImVec2 avail = ImGui::GetContentRegionAvail();
  float half = std::floor((avail.x - ImGui::GetStyle().ItemSpacing.x) / 2);
  state.irPaneWidth = half;
  std::vector<unsigned> hovered;
  int clickedSource = -1, clickedStep = -1;
  drawSide(state, "##linked-source", state.linkedSource, true, half, avail.y, hovered,
           clickedSource, state.linkedScrollSource);
  ImGui::SameLine();
  drawSide(state, "##linked-step", state.linkedStep, false, half, avail.y, hovered, clickedStep,
           state.linkedScrollStep);
  state.linkedScrollSource = state.linkedScrollStep = -1;
  // A click keeps a line's highlight and brings its partners into sight;
  // hovering shows them while no line is kept.
  if (clickedSource >= 0) {
    state.linkedPinned = true;
    state.linkedLine = static_cast<unsigned>(clickedSource + 1);
    state.linkedCursor = -1;
    moveLinkedCursor(state, 1);
  } else if (clickedStep >= 0) {
    state.linkedPinned = true;
    state.linkedCursor = clickedStep;
    const std::vector<unsigned> &sources = map.sourceLinesOf[static_cast<size_t>(clickedStep)];
    state.linkedLine = sources.empty() ? 0 : sources.front();
    if (state.linkedLine)
      state.linkedScrollSource = static_cast<int>(state.linkedLine) - 1;
  } else if (!state.linkedPinned) {
    state.linkedLine = hovered.empty() ? 0 : hovered.front();
    // Nothing under the mouse: the line of the op whose history is open.
    if (!state.linkedLine)
      for (const SourceLocation &place : state.historyLocations)
        if (map.rank(place.line) >= 0 &&
            samePlace(place, SourcePlace{studio.document().name(), place.line, 0})) {
          state.linkedLine = place.line;
          break;
        }
  }
  // A line newly highlighted by the history: both sides scroll to it.
  if (state.linkedLine != state.linkedShown) {
    state.linkedShown = state.linkedLine;
    if (state.linkedLine && hovered.empty() && clickedSource < 0 && clickedStep < 0) {
      state.linkedScrollSource = static_cast<int>(state.linkedLine) - 1;
      llvm::ArrayRef<unsigned> steps = map.stepLines(state.linkedLine);
      if (!steps.empty())
        state.linkedScrollStep = static_cast<int>(steps.front());
    }
  }
}

} // namespace executor_studio::gui
