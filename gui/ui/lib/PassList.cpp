//===- PassList.cpp - the pass list ---------------------------------------===//
#include "Panels.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace executor_studio::gui {
namespace {

/// "Passes", the recording's summary, the filter and "hide unchanged".
void drawHeader(Studio &studio, StudioView::State &state) {
  PipelineModel &passes = studio.passes();
  ImGui::TextColored(colors::accent(), "Passes");
  ImGui::SameLine();
  if (studio.recordingInProgress()) {
    ImGui::TextColored(colors::warning(), "recording...");
  } else if (passes.hasRecording()) {
    ImGui::TextColored(colors::dim(), "%zu, %zu changed, %.1f ms", passes.passCount(),
                       passes.changedCount(), passes.recording().totalMilliseconds);
  }

  ImGui::SetNextItemWidth(-FLT_MIN);
  if (inputString("##passfilter", state.passFilter, 0, "filter passes (name, options)"))
    passes.setPassFilter(state.passFilter);
  bool hide = passes.hideUnchanged();
  if (ImGui::Checkbox("hide unchanged", &hide)) {
    passes.setHideUnchanged(hide);
    state.settings->hideUnchanged = hide;
  }
}

/// The time of each pass as bars, in pipeline order; a click selects one.
void drawTimeBars(PipelineModel &passes, StudioView::State &state) {
  if (passes.passCount() < 2)
    return;
  std::vector<float> times;
  float slowestMs = 0;
  for (size_t i = 0; i < passes.passCount(); ++i) {
    times.push_back(static_cast<float>(passes.pass(i).milliseconds));
    slowestMs = std::max(slowestMs, times.back());
  }
  // The caption above the bars (ImGui's overlay would sit on them).
  ImGui::TextColored(colors::dim(), "ms per pass, max %.1f", slowestMs);
  ImGui::PlotHistogram("##passtimes", times.data(), static_cast<int>(times.size()), 0, nullptr,
                       0.0f, slowestMs * 1.05f,
                       ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 2.6f));
  state.probe("pass-times");
  if (ImGui::IsItemHovered()) {
    float x = (ImGui::GetIO().MousePos.x - ImGui::GetItemRectMin().x) /
              std::max(1.0f, ImGui::GetItemRectSize().x);
    int i = std::clamp(static_cast<int>(x * times.size()), 0,
                       static_cast<int>(times.size()) - 1);
    if (ImGui::IsMouseClicked(0))
      passes.select(i);
  }
}

/// Which of the pass list's columns are shown: the name keeps at least
/// kNameMinChars characters (16 of a nested step's name after its indent
/// under its target's row), and the others are shown while there is room
/// left beside it (the op counts while the IR is filtered, then the time,
/// then the number; the name's tooltip gives them all).
constexpr float kNameMinChars = 20;
struct Columns {
  bool number = true, time = true, ops = false;
  /// The widest number's width (a nested step's number is dim, not
  /// indented: its name is).
  float numberWidth = 0;
};

Columns chooseColumns(const PipelineModel &passes, bool opColumn) {
  const ImGuiStyle &style = ImGui::GetStyle();
  float pad = style.CellPadding.x * 2 + 1;
  float charW = characterWidth();
  float room = ImGui::GetContentRegionAvail().x - style.ScrollbarSize -
               (ImGui::GetTextLineHeight() * 0.55f + pad) - (charW * kNameMinChars + pad);
  Columns shown;
  unsigned widest = 0;
  for (size_t i = 0; i < passes.entryCount(); ++i)
    widest = std::max(widest, passes.number(static_cast<int>(i)));
  shown.numberWidth = charW * static_cast<float>(std::to_string(widest).size());
  auto take = [&](float width) {
    if (room < width + pad)
      return false;
    room -= width + pad;
    return true;
  };
  shown.ops = opColumn && take(charW * 7);
  shown.time = take(ImGui::GetFontSize() * 3.2f);
  // The number only where it leaves every label whole (the tooltip has it).
  size_t longest = passes.longestListLabel();
  room -= std::max(0.0f, charW * (static_cast<float>(longest) - kNameMinChars));
  shown.number = take(shown.numberWidth);
  return shown;
}

/// The table and its columns; those `shown` leaves out are disabled.
bool beginTable(const Columns &shown) {
  ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                          ImGuiTableFlags_BordersInnerV |
                          ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("##passes", 5, flags, ImVec2(0, 0)))
    return false;
  auto unless = [](bool on) { return on ? 0 : ImGuiTableColumnFlags_Disabled; };
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_NoResize);
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed | unless(shown.number),
                          shown.numberWidth);
  ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthStretch |
                                      ImGuiTableColumnFlags_NoHide);
  ImGui::TableSetupColumn("ms", ImGuiTableColumnFlags_WidthFixed | unless(shown.time),
                          ImGui::GetFontSize() * 3.2f);
  ImGui::TableSetupColumn("ops", ImGuiTableColumnFlags_WidthFixed | unless(shown.ops),
                          characterWidth() * 7);
  ImGui::TableHeadersRow();
  return true;
}

/// The input's row, to compare from.
void drawInputRow(PipelineModel &passes, const Columns &shown) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  marker(colors::dim());
  if (shown.number) {
    ImGui::TableSetColumnIndex(1);
    ImGui::TextColored(colors::dim(), "0");
  }
  ImGui::TableSetColumnIndex(2);
  ImGui::TextColored(colors::dim(), "input");
  if (shown.ops) {
    ImGui::TableSetColumnIndex(4);
    ImGui::Text("%zu", passes.filterCount(kInputPosition));
  }
}

/// The step's name, fitted to its column and selectable (a click on a
/// selected parent folds its nested steps), with its full name, options
/// and outcome as a tooltip.
void drawNameCell(PipelineModel &passes, StudioView::State &state, const Snapshot &s,
                  int position, bool isSelected) {
  if (!s.changed && !s.failed)
    ImGui::PushStyleColor(ImGuiCol_Text, colors::dim());
  StepLabel parts = passes.listLabel(position);
  float room = ImGui::GetContentRegionAvail().x;
  std::string label = fitLabel(parts, room);
  if (ImGui::Selectable(label.c_str(), isSelected,
                        ImGuiSelectableFlags_SpanAllColumns |
                            ImGuiSelectableFlags_AllowItemOverlap)) {
    if (passes.hasNested(position))
      passes.setExpanded(position, !(isSelected && passes.expanded(position)));
    passes.select(position);
  }
  state.probeText("pass-" + std::to_string(position), label, room);
  if (!s.changed && !s.failed)
    ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(passes.positionName(position).c_str());
    if (!parts.marks.empty())
      ImGui::TextColored(colors::warning(), "%s", parts.marks.c_str() + 2);
    ImGui::TextColored(colors::dim(), "%s", s.options.c_str());
    ImGui::TextColored(colors::dim(), "on %s", s.anchor.c_str());
    ImGui::Text("%s, %.3f ms", s.failed ? "failed" : s.changed ? "changed the IR" : "unchanged",
                s.milliseconds);
    if (!passes.irFilter().empty())
      ImGui::Text("%zu > %zu lines match the filter", passes.filterCount(passes.previousOf(position)),
                  passes.filterCount(position));
    ImGui::EndTooltip();
  }
  if (isSelected && state.scrollPassList) {
    ImGui::SetScrollHereY(0.5f);
    state.scrollPassList = false;
  }
}

/// The time, with a bar relative to the slowest pass.
void drawTimeCell(const Snapshot &s, double slowest) {
  ImVec2 p = ImGui::GetCursorScreenPos();
  float width = ImGui::GetContentRegionAvail().x;
  float fraction = slowest > 0 ? static_cast<float>(s.milliseconds / slowest) : 0;
  ImGui::GetWindowDrawList()->AddRectFilled(
      ImVec2(p.x, p.y + 2), ImVec2(p.x + width * fraction, p.y + ImGui::GetTextLineHeight() - 1),
      IM_COL32(70, 110, 170, 110), 2);
  char ms[32];
  std::snprintf(ms, sizeof(ms), s.milliseconds < 10 ? "%.2f" : "%.1f", s.milliseconds);
  ImGui::TextUnformatted(ms);
}

/// How many ops the IR filter finds before and after the step.
void drawOpCountCell(PipelineModel &passes, int position) {
  size_t before = passes.filterCount(passes.previousOf(position));
  size_t after = passes.filterCount(position);
  if (before != after)
    ImGui::TextColored(colors::changed(), "%zu>%zu", before, after);
  else
    ImGui::TextColored(colors::dim(), "%zu", after);
}

/// One step's row: its mark, number, name, time and (filtered) op count.
void drawStepRow(PipelineModel &passes, StudioView::State &state, int position,
                 double slowest, const Columns &shown) {
  const Snapshot &s = passes.pass(static_cast<size_t>(position));
  ImGui::TableNextRow();
  ImGui::PushID(position);
  ImGui::TableSetColumnIndex(0);
  marker(s.failed ? colors::error()
         : s.edited  ? colors::warning()
         : s.changed ? colors::changed()
                     : ImVec4(0.32f, 0.34f, 0.38f, 1));
  // A nested step's number is its number within its target (its file's
  // in executor-compile's ir/TARGET/).
  if (shown.number) {
    ImGui::TableSetColumnIndex(1);
    if (passes.isNested(position))
      ImGui::TextColored(colors::dim(), "%u", passes.number(position));
    else
      ImGui::Text("%u", passes.number(position));
  }
  ImGui::TableSetColumnIndex(2);
  drawNameCell(passes, state, s, position, position == passes.selected());
  if (shown.time) {
    ImGui::TableSetColumnIndex(3);
    drawTimeCell(s, slowest);
    state.probe("pass-ms-" + std::to_string(position));
  }
  if (shown.ops) {
    ImGui::TableSetColumnIndex(4);
    drawOpCountCell(passes, position);
  }
  ImGui::PopID();
}

/// A target's row above its own steps: its name and triple, their total
/// time; a click folds or unfolds them (stepping goes through the steps,
/// not this row).
void drawGroupRow(PipelineModel &passes, StudioView::State &state, int group,
                  double slowest, const Columns &shown) {
  const PipelineModel::TargetGroup &g = passes.targetGroups()[static_cast<size_t>(group)];
  ImGui::TableNextRow();
  ImGui::PushID(-2 - group);
  ImGui::TableSetColumnIndex(0);
  marker(g.changed ? colors::changed() : ImVec4(0.32f, 0.34f, 0.38f, 1));
  ImGui::TableSetColumnIndex(2);
  StepLabel parts = passes.groupLabel(group);
  float room = ImGui::GetContentRegionAvail().x;
  std::string label = fitLabel(parts, room);
  if (ImGui::Selectable(label.c_str(), false,
                        ImGuiSelectableFlags_SpanAllColumns |
                            ImGuiSelectableFlags_AllowItemOverlap))
    passes.setGroupExpanded(group, !passes.groupExpanded(group));
  state.probeText("pass-group-" + std::to_string(group), label, room);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text("%s/%s", passes.shortName(g.parent).c_str(), g.target.c_str());
    if (!g.triple.empty())
      ImGui::TextColored(colors::dim(), "for %s", g.triple.c_str());
    ImGui::Text("%zu steps, %.3f ms", g.steps.size(), g.milliseconds);
    ImGui::EndTooltip();
  }
  if (shown.time) {
    ImGui::TableSetColumnIndex(3);
    Snapshot total;
    total.milliseconds = g.milliseconds;
    drawTimeCell(total, std::max(slowest, g.milliseconds));
  }
  ImGui::PopID();
}

} // namespace

void drawPassList(Studio &studio, StudioView::State &state) {
  PipelineModel &passes = studio.passes();
  drawHeader(studio, state);
  drawTimeBars(passes, state);

  Columns shown = chooseColumns(passes, !passes.irFilter().empty());
  if (!beginTable(shown))
    return;
  double slowest = 0;
  for (size_t i = 0; i < passes.entryCount(); ++i)
    slowest = std::max(slowest, passes.pass(i).milliseconds);
  drawInputRow(passes, shown);
  // A list of thousands of rows (a recording of many targets) draws only
  // the rows in view, and the selected one when it is to be scrolled to;
  // a shorter one draws every row (laid out, and probed by the tests, when
  // scrolled out of view).
  std::vector<PipelineModel::ListRow> rows = passes.listRows();
  auto drawRow = [&](const PipelineModel::ListRow &row) {
    if (row.isGroup())
      drawGroupRow(passes, state, row.group, slowest, shown);
    else
      drawStepRow(passes, state, row.position, slowest, shown);
  };
  constexpr size_t kClippedRows = 512;
  if (rows.size() < kClippedRows) {
    for (const PipelineModel::ListRow &row : rows)
      drawRow(row);
  } else {
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rows.size()));
    if (state.scrollPassList)
      for (size_t i = 0; i < rows.size(); ++i)
        if (!rows[i].isGroup() && rows[i].position == passes.selected())
          clipper.ForceDisplayRangeByIndices(static_cast<int>(i), static_cast<int>(i) + 1);
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i)
        drawRow(rows[static_cast<size_t>(i)]);
  }
  ImGui::EndTable();
}

} // namespace executor_studio::gui
