//===- DiffView.cpp - before/after side by side, unified, source ----------===//
//
// One child window holds both sides, so they scroll together vertically
// (and horizontally, through one offset). Only the visible rows are drawn
// (ImGuiListClipper), straight into the draw list: a 100,000-line snapshot
// costs what its visible 60 lines cost.
//
//===----------------------------------------------------------------------===//
#include "Panels.h"

#include "StudioModel/IrText.h"
#include "StudioModel/SourceLocations.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace executor_studio::gui {

namespace {

namespace syntax {
ImU32 value() { return IM_COL32(140, 200, 255, 255); }
ImU32 block() { return IM_COL32(200, 150, 255, 255); }
ImU32 symbol() { return IM_COL32(240, 205, 110, 255); }
ImU32 op() { return IM_COL32(255, 140, 170, 255); }
ImU32 type() { return IM_COL32(120, 210, 180, 255); }
ImU32 number() { return IM_COL32(180, 230, 140, 255); }
ImU32 string() { return IM_COL32(235, 160, 100, 255); }
ImU32 comment() { return IM_COL32(110, 130, 120, 255); }
ImU32 alias() { return IM_COL32(120, 190, 200, 255); }
} // namespace syntax

/// The colour of a lexical class (IrText.h: the model splits the lines).
ImU32 colorOf(IrTokenClass kind) {
  switch (kind) {
  case IrTokenClass::Op:
    return syntax::op();
  case IrTokenClass::Value:
    return syntax::value();
  case IrTokenClass::Block:
    return syntax::block();
  case IrTokenClass::Symbol:
    return syntax::symbol();
  case IrTokenClass::Alias:
    return syntax::alias();
  case IrTokenClass::Type:
    return syntax::type();
  case IrTokenClass::Number:
    return syntax::number();
  case IrTokenClass::String:
    return syntax::string();
  case IrTokenClass::Comment:
    return syntax::comment();
  case IrTokenClass::Text:
    break;
  }
  return colors::text();
}

/// Draws the visible part of one pane's text.
struct Pane {
  ImDrawList *draw;
  ImFont *font;
  float fontSize, charWidth, lineHeight;
  float hscroll;
  std::vector<IrSpan> *segments;

  /// `textX` is where column 0 would be at scroll 0; the text is clipped to
  /// [clipLeft, clipRight].
  void text(std::string_view line, float textX, float y, float clipLeft,
            float clipRight, const std::string &search) const {
    if (line.empty())
      return;
    size_t first = static_cast<size_t>(std::max(0.0f, hscroll / charWidth));
    if (first >= line.size())
      return;
    size_t last = std::min(line.size(),
                           first + static_cast<size_t>((clipRight - clipLeft) / charWidth) + 2);
    ImVec4 clip(clipLeft, y, clipRight, y + lineHeight);
    float x0 = textX - hscroll;
    if (!search.empty()) {
      for (size_t at = findCaseInsensitive(line, search); at != std::string_view::npos;
           at = findCaseInsensitive(line, search, at + 1)) {
        if (at >= last)
          break;
        float a = std::max(clipLeft, x0 + at * charWidth);
        float b = std::min(clipRight, x0 + (at + search.size()) * charWidth);
        if (b > a)
          draw->AddRectFilled(ImVec2(a, y), ImVec2(b, y + lineHeight), colors::matchBg(), 2);
      }
    }
    classifyLine(line, *segments);
    for (const IrSpan &s : *segments) {
      if (s.end <= first || s.begin >= last)
        continue;
      uint32_t b = std::max<uint32_t>(s.begin, static_cast<uint32_t>(first));
      uint32_t e = std::min<uint32_t>(s.end, static_cast<uint32_t>(last));
      draw->AddText(font, fontSize, ImVec2(x0 + b * charWidth, y + 1), colorOf(s.kind),
                    line.data() + b, line.data() + e, 0, &clip);
    }
  }

  void number(uint32_t n, float rightX, float y) const {
    if (n == 0)
      return;
    char buffer[16];
    int len = std::snprintf(buffer, sizeof(buffer), "%u", n);
    draw->AddText(font, fontSize, ImVec2(rightX - len * charWidth, y + 1),
                  colors::lineNumber(), buffer, buffer + len);
  }
};

void comparePopup(PipelineModel &m) {
  if (!ImGui::BeginPopup("compare"))
    return;
  ImGui::TextColored(colors::accent(), "Compare any two snapshots");
  int n = static_cast<int>(m.passCount());
  int sides[2] = {m.leftPosition(), m.rightPosition()};
  const char *labels[2] = {"left", "right"};
  for (int s = 0; s < 2; ++s) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 22);
    if (ImGui::BeginCombo(labels[s], m.positionName(sides[s]).c_str())) {
      std::vector<int> positions = {kInputPosition};
      positions.insert(positions.end(), m.listOrder().begin(), m.listOrder().end());
      for (int p : positions) {
        bool selected = p == sides[s];
        if (ImGui::Selectable(m.positionName(p).c_str(), selected)) {
          sides[s] = p;
          m.compare(sides[0], sides[1]);
        }
      }
      ImGui::EndCombo();
    }
  }
  if (ImGui::Button("input vs output"))
    m.compare(kInputPosition, n - 1);
  ImGui::SameLine();
  if (ImGui::Button("before/after the selected pass")) {
    m.select(m.selected());
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

} // namespace

namespace {
/// Row 1: the view mode, the diff method and the line options.
void drawViewOptions(Studio &studio, StudioView::State &state) {
  PipelineModel &m = studio.passes();
  Settings &settings = *state.settings;
  ViewMode mode = m.viewMode();
  // Each control goes beside the last while it fits, else on a new line.
  bool first = true;
  auto next = [&](float width) {
    if (!first)
      sameLineOrWrap(width);
    first = false;
  };
  auto modeButton = [&](const char *label, ViewMode value) {
    next(checkboxWidth(label));
    if (ImGui::RadioButton(label, mode == value)) {
      m.setViewMode(value);
      settings.viewMode = viewModeName(value);
    }
  };
  modeButton("side by side", ViewMode::SideBySide);
  modeButton("unified", ViewMode::Unified);
  modeButton("source", ViewMode::Source);
  next(checkboxWidth("linked"));
  ImGui::Checkbox("linked", &state.linkedWanted);
  state.probe("linked");
  helpTooltip("The source beside the step, each source line and what it became in one "
              "colour (from loc, !dbg and .loc); always at a kernel's LLVM IR and assembly.");
  next(ImGui::CalcTextSize("|").x);
  ImGui::TextColored(colors::dim(), "|");
  bool structural = m.structural();
  next(checkboxWidth("structural"));
  if (ImGui::Checkbox("structural", &structural)) {
    m.setStructural(structural);
    settings.structuralDiff = structural;
  }
  helpTooltip("Match the operations of both sides (by location, then by structure and "
              "operands) and give matching values the same names, so the diff shows only "
              "what the pass inserted, rewrote or removed. Off: the plain line diff.");
  LineOptions options = m.lineOptions();
  bool optionsChanged = false;
  if (!structural) {
    next(checkboxWidth("normalise SSA"));
    optionsChanged |= ImGui::Checkbox("normalise SSA", &options.normaliseSsaNames);
  }
  bool locations = studio.printLocations();
  next(checkboxWidth("print loc"));
  if (ImGui::Checkbox("print loc", &locations)) {
    studio.setPrintLocations(locations);
    settings.printLocations = locations;
  }
  helpTooltip("Record the snapshots with their locations (loc(...)); records again. "
              "'hide loc' drops them from the diff.");
  next(checkboxWidth("hide loc"));
  optionsChanged |= ImGui::Checkbox("hide loc", &options.hideLocations);
  state.probe("hide-loc");
  if (optionsChanged) {
    m.setLineOptions(options);
    settings.normaliseSsaNames = options.normaliseSsaNames;
    settings.hideLocations = options.hideLocations;
  }
  if (mode == ViewMode::Unified) {
    next(checkboxWidth("whole file"));
    bool whole = m.wholeFile();
    if (ImGui::Checkbox("whole file", &whole)) {
      m.setWholeFile(whole);
      settings.wholeFile = whole;
    }
  }
  next(buttonWidth("compare..."));
  if (ImGui::Button("compare..."))
    ImGui::OpenPopup("compare");
  state.probe("compare");
  comparePopup(m);
}

/// Row 2: the IR filter, the search and what the diff counts.
void drawFilterAndSearch(PipelineModel &m, StudioView::State &state) {
  ImGuiIO &io = ImGui::GetIO();
  ViewMode mode = m.viewMode();
  // Narrow windows get narrower fields; what does not fit wraps.
  float field = std::min(ImGui::GetFontSize() * 14, ImGui::GetContentRegionAvail().x * 0.32f);
  ImGui::SetNextItemWidth(field);
  if (inputString("##irfilter", state.irFilter, 0,
                  state.irFilterOp ? "op name (arith.addi)" : "filter lines")) {
    m.setIrFilter({state.irFilter, state.irFilterOp});
  }
  ImGui::SameLine();
  if (ImGui::Checkbox("op", &state.irFilterOp))
    m.setIrFilter({state.irFilter, state.irFilterOp});
  helpTooltip("Match lines whose operation is the filter (arith.addi, "
              "func.return) rather than lines that contain it.");
  sameLineOrWrap(field);
  if (state.focusSearch) {
    ImGui::SetKeyboardFocusHere();
    state.focusSearch = false;
  }
  ImGui::SetNextItemWidth(field);
  bool enter = inputString("##search", state.search, ImGuiInputTextFlags_EnterReturnsTrue,
                           "search  (/)");
  state.probe("search");
  bool searchActive = ImGui::IsItemActive();
  bool newQuery = state.search != m.search();
  m.setSearch(state.search);
  // A new query shows its first hit at once: `1/1` for one hit.
  if (newQuery && !state.search.empty() && !enter)
    m.firstHit();
  if (enter) {
    if (io.KeyShift)
      m.previousHit();
    else
      m.nextHit();
    ImGui::SetKeyboardFocusHere(-1); // keep typing
  }
  if (searchActive && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
    ImGui::SetWindowFocus(nullptr);
  sameLineOrWrap(2 * ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.x);
  if (ImGui::ArrowButton("##prevhit", ImGuiDir_Up))
    m.previousHit();
  ImGui::SameLine();
  if (ImGui::ArrowButton("##nexthit", ImGuiDir_Down))
    m.nextHit();
  if (!state.search.empty()) {
    sameLineOrWrap(ImGui::CalcTextSize("no match").x);
    const std::vector<uint32_t> &hits = m.searchHits();
    if (hits.empty())
      ImGui::TextColored(colors::error(), "no match");
    else
      ImGui::TextColored(colors::dim(), "%d/%zu", std::max(m.currentHit(), 0) + 1, hits.size());
  }
  if (mode != ViewMode::Source) {
    const DiffView &counts = m.diffView();
    sameLineOrWrap(ImGui::CalcTextSize("-0000 +0000 lines").x);
    if (counts.diff.identical())
      ImGui::TextColored(colors::dim(), "no change");
    else
      ImGui::TextColored(colors::dim(), "-%zu +%zu lines", counts.diff.removed,
                         counts.diff.added);
    if (!counts.structuralError.empty()) {
      sameLineOrWrap(ImGui::CalcTextSize("(line diff)").x);
      ImGui::TextColored(colors::warning(), "(line diff)");
      helpTooltip(("The structural diff needs both snapshots to parse: " +
                   counts.structuralError)
                      .c_str());
    }
  }
}

/// Row 3: what each pane shows (the step, whether it changed, its time).
void drawPaneTitles(PipelineModel &m, const DiffView &view, size_t rows) {
  ViewMode mode = m.viewMode();
  float fullWidth = ImGui::GetContentRegionAvail().x;
  float titleY = ImGui::GetCursorPosY();
  auto title = [&](float x, int position, const char *side) {
    ImGui::SetCursorPos(ImVec2(x, titleY));
    // Each side's title stays in its half; hovering shows it whole.
    ImVec2 screen = ImGui::GetCursorScreenPos();
    float room = mode == ViewMode::SideBySide ? fullWidth / 2 - 8 : fullWidth;
    ImGui::PushClipRect(screen, ImVec2(screen.x + room, screen.y + ImGui::GetFrameHeight()),
                        true);
    struct PopClip {
      ~PopClip() { ImGui::PopClipRect(); }
    } popClip;
    if (ImGui::IsMouseHoveringRect(screen, ImVec2(screen.x + room,
                                                  screen.y + ImGui::GetTextLineHeight())) &&
        position >= 0 && position < static_cast<int>(m.entryCount()))
      ImGui::SetTooltip("%s: %s\n%s", side, m.positionName(position).c_str(),
                        m.pass(position).options.c_str());
    if (position >= 0 && position < static_cast<int>(m.entryCount())) {
      const Snapshot &s = m.pass(position);
      ImGui::TextColored(colors::accent(), "%s: %s", side, m.positionName(position).c_str());
      ImGui::SameLine();
      if (s.edited) {
        ImGui::TextColored(colors::warning(), "edited");
        ImGui::SameLine();
      }
      ImGui::TextColored(s.changed ? colors::changed() : colors::dim(), "%s, %.2f ms",
                         s.changed ? "changed" : "unchanged", s.milliseconds);
    } else {
      ImGui::TextColored(colors::accent(), "%s: %s", side, m.positionName(position).c_str());
    }
  };
  float x0 = ImGui::GetCursorPosX();
  if (mode == ViewMode::SideBySide) {
    title(x0, view.leftPosition, "before");
    title(x0 + fullWidth / 2 + 4, view.rightPosition, "after");
  } else if (mode == ViewMode::Unified) {
    ImGui::TextColored(colors::accent(), "%s  ->  %s",
                       m.positionName(view.leftPosition).c_str(),
                       m.positionName(view.rightPosition).c_str());
  } else {
    ImGui::TextColored(colors::accent(), "source: %s", m.sourceName().c_str());
  }
  if (!m.irFilter().empty()) {
    ImGui::SameLine();
    ImGui::TextColored(colors::warning(), "  %zu rows match the filter", rows);
  }
}

/// Draws the rows of one frame; the geometry is the frame's.
struct RowPainter {
  Studio &studio;
  StudioView::State &state;
  PipelineModel &m;
  const DiffView &view;
  ViewMode mode;
  ImDrawList *draw;
  ImFont *font;
  float fontSize, charWidth, lineHeight, width, paneWidth, gutter;
  Pane pane;
  const std::string &search;
  long highlighted;
  ImVec2 mouse;
  /// Error lines of the source, for the Source view.
  std::vector<const DiagnosticItem *> sourceDiagnostics;

  void row(size_t index) {
    ImVec2 p = ImGui::GetCursorScreenPos();
    const DiffRow &r = m.row(index);
    float y = p.y;
    float bottom = y + lineHeight;
    if (mode == ViewMode::SideBySide)
      sideBySide(r, p);
    else if (mode == ViewMode::Unified)
      unified(r, p);
    else
      source(r, p);
    if (static_cast<long>(index) == highlighted)
      draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + width, bottom), colors::highlightBg());
    markHistory(r, p, bottom);
    ImGui::Dummy(ImVec2(width, lineHeight));
    // A click puts the cursor on the line (the Graph view marks its op).
    if (ImGui::IsItemClicked() && mode != ViewMode::Source)
      studio.graph().setCursorLine(m.rightLineNumber(r));
    contextMenu(index, r);
  }

  /// Whether `line` is one of the ops the history follows.
  bool inHistory(std::string_view line, const TextLines *lines) const {
    if (state.historyLocations.empty() || line.find("loc(") == std::string_view::npos)
      return false;
    for (const SourceLocation &found : findSourceLocations(line, lines))
      for (const SourceLocation &followed : state.historyLocations)
        if (found == followed)
          return true;
    return false;
  }

  /// A bar at the left of each side whose line the op history follows.
  void markHistory(const DiffRow &r, ImVec2 p, float bottom) {
    if (state.historyLocations.empty())
      return;
    ImU32 mark = IM_COL32(255, 200, 80, 255);
    float bar = std::max(3.0f, charWidth * 0.35f);
    if (r.left >= 0 && inHistory(m.leftText(r), mode == ViewMode::Source ? nullptr
                                                                        : view.left.get()))
      draw->AddRectFilled(ImVec2(p.x, p.y), ImVec2(p.x + bar, bottom), mark);
    if (mode == ViewMode::SideBySide && r.right >= 0 &&
        inHistory(m.rightText(r), view.right.get()))
      draw->AddRectFilled(ImVec2(p.x + paneWidth + 1, p.y),
                          ImVec2(p.x + paneWidth + 1 + bar, bottom), mark);
  }

  /// Both sides, what differs inside a changed line marked.
  void sideBySide(const DiffRow &r, ImVec2 p) {
    float y = p.y;
    float bottom = y + lineHeight;
    float mid = p.x + paneWidth;
    ImU32 leftBg = 0, rightBg = 0;
    switch (r.kind) {
    case RowKind::Changed:
      leftBg = colors::changedLeftBg();
      rightBg = colors::changedRightBg();
      break;
    case RowKind::Removed:
      leftBg = colors::removedBg();
      rightBg = IM_COL32(255, 255, 255, 8);
      break;
    case RowKind::Added:
      leftBg = IM_COL32(255, 255, 255, 8);
      rightBg = colors::addedBg();
      break;
    default:
      break;
    }
    if (leftBg)
      draw->AddRectFilled(ImVec2(p.x, y), ImVec2(mid - 1, bottom), leftBg);
    if (rightBg)
      draw->AddRectFilled(ImVec2(mid + 1, y), ImVec2(p.x + width, bottom), rightBg);
    std::string_view left = m.leftText(r), right = m.rightText(r);
    if (r.kind == RowKind::Changed) {
      // Mark what differs inside the line.
      size_t prefix = 0;
      while (prefix < left.size() && prefix < right.size() && left[prefix] == right[prefix])
        ++prefix;
      size_t suffix = 0;
      while (suffix < left.size() - prefix && suffix < right.size() - prefix &&
             left[left.size() - 1 - suffix] == right[right.size() - 1 - suffix])
        ++suffix;
      auto mark = [&](float textX, float clipL, float clipR, size_t b, size_t e, ImU32 c) {
        float a = std::max(clipL, textX - state.hscroll + b * charWidth);
        float z = std::min(clipR, textX - state.hscroll + e * charWidth);
        if (z > a)
          draw->AddRectFilled(ImVec2(a, y), ImVec2(z, bottom), c);
      };
      mark(p.x + gutter, p.x + gutter, mid - 1, prefix, left.size() - suffix,
           colors::removedBg());
      mark(mid + gutter, mid + gutter, p.x + width, prefix, right.size() - suffix,
           colors::addedBg());
    }
    pane.number(m.leftLineNumber(r), p.x + gutter - charWidth, y);
    pane.number(m.rightLineNumber(r), mid + gutter - charWidth, y);
    pane.text(left, p.x + gutter, y, p.x + gutter, mid - 2, search);
    pane.text(right, mid + gutter, y, mid + gutter, p.x + width, search);
  }

  /// One column, a sign before each line, hunk headers.
  void unified(const DiffRow &r, ImVec2 p) {
    float y = p.y;
    float bottom = y + lineHeight;
    if (r.kind == RowKind::Hunk) {
      draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + width, bottom), colors::hunkBg());
      std::string header = hunkHeader(r);
      draw->AddText(font, fontSize, ImVec2(p.x + 2 * gutter, y + 1),
                    IM_COL32(170, 190, 240, 255), header.c_str());
    } else {
      ImU32 bg = r.kind == RowKind::Removed ? colors::removedBg()
                 : r.kind == RowKind::Added ? colors::addedBg()
                                            : 0;
      if (bg)
        draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + width, bottom), bg);
      pane.number(m.leftLineNumber(r), p.x + gutter - charWidth, y);
      pane.number(m.rightLineNumber(r), p.x + 2 * gutter - charWidth, y);
      const char *sign = r.kind == RowKind::Removed ? "-" : r.kind == RowKind::Added ? "+" : " ";
      draw->AddText(font, fontSize, ImVec2(p.x + 2 * gutter, y + 1), colors::text(), sign);
      float textX = p.x + 2 * gutter + 2 * charWidth;
      pane.text(r.kind == RowKind::Added ? m.rightText(r) : m.leftText(r), textX, y, textX,
                p.x + width, search);
    }
  }

  /// The source, its diagnostics' lines marked.
  void source(const DiffRow &r, ImVec2 p) {
    float y = p.y;
    float bottom = y + lineHeight;
    uint32_t line = m.leftLineNumber(r);
    const DiagnosticItem *diagnostic = nullptr;
    for (const DiagnosticItem *d : sourceDiagnostics)
      if (d->line == line) {
        diagnostic = d;
        break;
      }
    if (diagnostic) {
      draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + width, bottom),
                          diagnostic->severity == RecordedDiagnostic::Severity::Error
                              ? colors::errorBg()
                              : IM_COL32(160, 120, 30, 100));
      if (mouse.y >= y && mouse.y < bottom && ImGui::IsWindowHovered()) {
        ImGui::BeginTooltip();
        ImGui::TextColored(colors::error(), "%s", severityName(diagnostic->severity));
        ImGui::SameLine();
        ImGui::TextUnformatted(diagnostic->message.c_str());
        ImGui::EndTooltip();
      }
    }
    pane.number(line, p.x + gutter - charWidth, y);
    pane.text(m.leftText(r), p.x + gutter, y, p.x + gutter, p.x + width, search);
    if (diagnostic && diagnostic->column > 0) {
      float cx = p.x + gutter - state.hscroll + (diagnostic->column - 1) * charWidth;
      draw->AddLine(ImVec2(cx, bottom - 1), ImVec2(cx + charWidth * 2, bottom - 1),
                    IM_COL32(255, 90, 90, 255), 2);
    }
  }

  /// Right-click: go to the source file and line the row's loc(...) names.
  void contextMenu(size_t index, const DiffRow &r) {
    char popupId[32];
    std::snprintf(popupId, sizeof(popupId), "##source%zu", index);
    if (ImGui::BeginPopupContextItem(popupId)) {
      bool left = mode == ViewMode::Source || r.kind == RowKind::Removed;
      std::string_view text = left ? m.leftText(r) : m.rightText(r);
      const TextLines *lines = left ? view.left.get() : view.right.get();
      std::string base =
          std::filesystem::path(studio.document().path()).parent_path().string();
      if (std::optional<SourceLocation> loc = findSourceOnDisk(text, lines, base)) {
        std::string label = "go to source " + loc->file + ":" + std::to_string(loc->line);
        if (ImGui::MenuItem(label.c_str()))
          if (auto source = readSourceLines(loc->file)) {
            state.sourcePath = loc->file;
            state.sourceLines = std::move(*source);
            state.sourceLine = loc->line;
            state.sourceScroll = true;
          }
      } else {
        ImGui::TextDisabled("go to source: this line names no file on disk");
      }
      // In the source view a line is a line of the file (its ops are found
      // by the places the recorded input names), elsewhere of the snapshot.
      std::vector<SourceLocation> locations;
      std::string why;
      if (mode == ViewMode::Source) {
        if (std::shared_ptr<const std::string> input = m.irAt(kInputPosition))
          locations = findOpsAtFileLine(*input, studio.document().name(),
                                        studio.document().text(), m.leftLineNumber(r), 0, why);
      } else {
        locations = findSourceLocations(text, lines);
      }
      if (!locations.empty()) {
        if (ImGui::MenuItem("history of this op"))
          openOpHistory(studio, state, std::move(locations), std::string(text));
      } else {
        ImGui::TextDisabled("history: %s",
                            why.empty() ? "record with 'print loc' to follow ops" : why.c_str());
      }
      ImGui::EndPopup();
    }
  }
};

/// The rows of the current view, only the visible ones unless
/// `state.drawAllRows`.
void drawRows(Studio &studio, StudioView::State &state, const DiffView &view, size_t rows) {
  PipelineModel &m = studio.passes();
  ImGuiIO &io = ImGui::GetIO();
  ViewMode mode = m.viewMode();
  ImGui::BeginChild("##irview", ImVec2(0, 0), true, ImGuiWindowFlags_NoNav);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));
  ImDrawList *draw = ImGui::GetWindowDrawList();
  ImFont *font = ImGui::GetFont();
  float fontSize = ImGui::GetFontSize();
  float charWidth = font->CalcTextSizeA(fontSize, FLT_MAX, 0, "M").x;
  float lineHeight = std::floor(ImGui::GetTextLineHeight() + 3);
  float width = ImGui::GetContentRegionAvail().x;
  float viewHeight = ImGui::GetWindowHeight();

  if (std::optional<size_t> target = m.takeScrollRequest())
    ImGui::SetScrollY(std::max(0.0f, *target * lineHeight - viewHeight * 0.35f));
  if (state.scrollDelta != 0) {
    float y = ImGui::GetScrollY() + state.scrollDelta;
    if (y > ImGui::GetScrollMaxY())
      y = 0;
    ImGui::SetScrollY(y);
    state.scrollDelta = 0;
  }

  uint32_t biggestNumber = static_cast<uint32_t>(
      std::max<size_t>({view.left ? view.left->size() : 0,
                        view.right ? view.right->size() : 0, 999}));
  if (mode == ViewMode::Source)
    biggestNumber = std::max<uint32_t>(biggestNumber, static_cast<uint32_t>(rows));
  int digits = static_cast<int>(std::log10(static_cast<double>(biggestNumber))) + 1;
  float gutter = (digits + 1.5f) * charWidth;

  size_t longest = m.maxLineLength();
  float paneWidth = mode == ViewMode::SideBySide ? width / 2 : width;
  state.irPaneWidth = paneWidth;
  float textWidth = paneWidth - gutter - (mode == ViewMode::Unified ? gutter + 2 * charWidth : 0);
  float maxScroll = std::max(0.0f, (longest + 4) * charWidth - textWidth);
  if (ImGui::IsWindowHovered()) {
    float wheel = io.MouseWheelH;
    if (io.KeyShift && io.MouseWheel != 0)
      wheel = io.MouseWheel;
    if (wheel != 0)
      state.hscroll -= wheel * charWidth * 8;
  }
  state.hscroll = std::clamp(state.hscroll, 0.0f, maxScroll);

  std::vector<IrSpan> segments;
  RowPainter painter{studio,      state,     m,        view,      mode,   draw,
                     font,        fontSize,  charWidth, lineHeight, width, paneWidth,
                     gutter,
                     Pane{draw, font, fontSize, charWidth, lineHeight, state.hscroll, &segments},
                     m.search(),  m.highlightedRow(), io.MousePos, {}};
  if (mode == ViewMode::Source)
    for (const DiagnosticItem &d : m.diagnostics())
      if (!d.isNote && d.line > 0)
        painter.sourceDiagnostics.push_back(&d);

  state.rowsDrawn = 0;
  if (state.drawAllRows) {
    for (size_t i = 0; i < rows; ++i) {
      painter.row(i);
      ++state.rowsDrawn;
    }
  } else {
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rows), lineHeight);
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        painter.row(static_cast<size_t>(i));
        ++state.rowsDrawn;
      }
  }
  if (mode == ViewMode::SideBySide) {
    ImVec2 top = ImGui::GetWindowPos();
    float mid = ImGui::GetWindowPos().x + ImGui::GetStyle().WindowPadding.x + paneWidth;
    draw->AddLine(ImVec2(mid, top.y), ImVec2(mid, top.y + viewHeight),
                  IM_COL32(70, 75, 90, 255), 1);
  }
  if (rows == 0) {
    const char *why = studio.recordingInProgress() ? "recording..."
                      : !m.hasRecording()          ? "open a .mlir file"
                      : m.irFilter().empty()       ? "nothing to show"
                                                   : "no line matches the filter";
    ImGui::TextColored(colors::dim(), "%s", why);
  }
  state.lastScroll = ImGui::GetScrollY();
  state.lastScrollMax = ImGui::GetScrollMaxY();
  ImGui::PopStyleVar();
  ImGui::EndChild();
}

} // namespace

void drawIrView(Studio &studio, StudioView::State &state) {
  PipelineModel &m = studio.passes();

  // Row 0: edit the IR after the selected pass, re-run, revert, save.
  drawEditBar(studio, state);
  if (state.editing) {
    drawEditor(studio, state);
    return;
  }
  drawViewOptions(studio, state);
  if (linkedViewWanted(studio, state)) {
    drawLinkedView(studio, state);
    return;
  }
  drawFilterAndSearch(m, state);
  const DiffView &view = m.diffView();
  size_t rows = m.rowCount();
  drawPaneTitles(m, view, rows);
  drawRows(studio, state, view, rows);
}

void drawSourceFile(StudioView::State &state) {
  if (state.sourcePath.empty())
    return;
  bool open = !panelHeader(state, "source-file", "Source: " + state.sourcePath);
  ImGui::BeginChild("##sourcelines", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  {
    float lineHeight = ImGui::GetTextLineHeightWithSpacing();
    if (state.sourceScroll) {
      ImGui::SetScrollY(std::max(0.0f, (state.sourceLine - 1) * lineHeight -
                                           ImGui::GetWindowHeight() / 3));
      state.sourceScroll = false;
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(state.sourceLines.size()), lineHeight);
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        bool here = static_cast<unsigned>(i + 1) == state.sourceLine;
        if (here)
          ImGui::PushStyleColor(ImGuiCol_Text, colors::error());
        ImGui::Text("%5d  %s", i + 1, state.sourceLines[i].c_str());
        if (here)
          ImGui::PopStyleColor();
      }
  }
  ImGui::EndChild();
  if (!open) {
    state.sourcePath.clear();
    state.sourceLines.clear();
  }
}

} // namespace executor_studio::gui
