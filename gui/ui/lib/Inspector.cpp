//===- Inspector.cpp - a launch's input or result as a table and a plot ---===//
//
// Shape, min/max/mean/NaN count, copy as JSON; rank 1 as a line plot
// (PlotLines), rank 2 as a heatmap (draw list) and rows x columns, higher
// ranks sliced on their leading dimensions. Dear ImGui tables throughout.
//
//===----------------------------------------------------------------------===//
#include "Panels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace executor_studio::gui {

namespace {
/// A blue-to-yellow ramp (viridis-like) for t in [0, 1].
ImU32 ramp(float t) {
  static const float stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140},
                                    {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(t, 0.0f, 1.0f) * 4;
  int i = std::min(3, static_cast<int>(t));
  float f = t - static_cast<float>(i);
  auto mix = [&](int c) {
    return static_cast<int>(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f);
  };
  return IM_COL32(mix(0), mix(1), mix(2), 255);
}

std::string number(double v, const ElementType &element) {
  char text[48];
  if (std::isnan(v))
    return "NaN";
  if (element.kind == ElementType::Kind::Float)
    std::snprintf(text, sizeof(text), "%.6g", v);
  else
    std::snprintf(text, sizeof(text), "%.0f", v);
  return text;
}
/// Rank 1: a line plot with a value axis (ticks at min, between and max), an
/// index axis, and the value under the cursor.
void linePlot(StudioView::State &state, const std::vector<double> &values, double lo,
              double hi, const ElementType &element) {
  ImDrawList *draw = ImGui::GetWindowDrawList();
  float font = ImGui::GetFontSize();
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float width = ImGui::GetContentRegionAvail().x;
  float height = font * 9;
  // Room for the value labels on the left, the index labels below.
  float labelWidth = 0;
  const int kTicks = 4;
  std::vector<std::string> valueLabels;
  for (int t = 0; t <= kTicks; ++t) {
    double v = lo + (hi - lo) * t / kTicks;
    valueLabels.push_back(number(v, element.kind == ElementType::Kind::Float
                                        ? element
                                        : elementTypeNamed("f64")));
    labelWidth = std::max(labelWidth, ImGui::CalcTextSize(valueLabels.back().c_str()).x);
  }
  ImVec2 a(origin.x + labelWidth + font * 0.6f, origin.y + font * 0.5f);
  ImVec2 b(origin.x + width - font * 0.5f, origin.y + height - font * 1.6f);
  draw->AddRectFilled(a, b, IM_COL32(30, 33, 42, 255));
  ImU32 axis = IM_COL32(150, 155, 170, 255), grid = IM_COL32(70, 75, 90, 255);
  double span = hi - lo;
  auto yOf = [&](double v) {
    float t = span > 0 ? static_cast<float>((v - lo) / span) : 0.5f;
    return b.y - t * (b.y - a.y);
  };
  size_t n = values.size();
  auto xOf = [&](size_t i) {
    return n > 1 ? a.x + (b.x - a.x) * static_cast<float>(i) / static_cast<float>(n - 1)
                 : (a.x + b.x) / 2;
  };
  for (int t = 0; t <= kTicks; ++t) {
    float y = b.y - (b.y - a.y) * t / kTicks;
    draw->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), grid);
    draw->AddLine(ImVec2(a.x - font * 0.3f, y), ImVec2(a.x, y), axis);
    ImVec2 size = ImGui::CalcTextSize(valueLabels[t].c_str());
    draw->AddText(ImVec2(a.x - font * 0.4f - size.x, y - size.y / 2), axis,
                  valueLabels[t].c_str());
  }
  for (int t = 0; t <= kTicks && n > 0; ++t) {
    size_t i = (n - 1) * t / kTicks;
    if (t > 0 && i == (n - 1) * (t - 1) / kTicks)
      continue;
    float x = xOf(i);
    draw->AddLine(ImVec2(x, b.y), ImVec2(x, b.y + font * 0.3f), axis);
    std::string label = std::to_string(i);
    ImVec2 size = ImGui::CalcTextSize(label.c_str());
    draw->AddText(ImVec2(std::clamp(x - size.x / 2, a.x, b.x - size.x), b.y + font * 0.3f), axis,
                  label.c_str());
  }
  draw->AddLine(ImVec2(a.x, a.y), ImVec2(a.x, b.y), axis);
  draw->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), axis);
  for (size_t i = 0; i + 1 < n; ++i)
    if (!std::isnan(values[i]) && !std::isnan(values[i + 1]))
      draw->AddLine(ImVec2(xOf(i), yOf(values[i])), ImVec2(xOf(i + 1), yOf(values[i + 1])),
                    IM_COL32(120, 190, 255, 255), 1.5f);
  if (n == 1 && !std::isnan(values[0]))
    draw->AddCircleFilled(ImVec2(xOf(0), yOf(values[0])), 3, IM_COL32(120, 190, 255, 255));
  ImGui::InvisibleButton("##line", ImVec2(width, height));
  state.probe("line-plot");
  if (ImGui::IsItemHovered() && n > 0) {
    float mx = ImGui::GetIO().MousePos.x;
    float t = n > 1 ? (mx - a.x) / (b.x - a.x) : 0;
    size_t i = static_cast<size_t>(
        std::clamp(std::lround(t * static_cast<float>(n - 1)), 0L, static_cast<long>(n - 1)));
    float x = xOf(i);
    draw->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(255, 255, 255, 90));
    if (!std::isnan(values[i]))
      draw->AddCircleFilled(ImVec2(x, yOf(values[i])), 4, IM_COL32(255, 220, 120, 255));
    char hover[96];
    std::snprintf(hover, sizeof(hover), "[%zu] = %s", i, number(values[i], element).c_str());
    state.inspectHover = hover;
    ImGui::SetTooltip("%s", hover);
  }
}

/// The heatmap's colour scale: the ramp from min (bottom) to max (top), with
/// their values and the middle one.
void colourScale(ImVec2 at, float height, double lo, double hi, const ElementType &element) {
  ImDrawList *draw = ImGui::GetWindowDrawList();
  float font = ImGui::GetFontSize();
  float barWidth = font * 0.9f;
  const int kSteps = 32;
  for (int k = 0; k < kSteps; ++k) {
    float y0 = at.y + height * k / kSteps, y1 = at.y + height * (k + 1) / kSteps;
    draw->AddRectFilled(ImVec2(at.x, y0), ImVec2(at.x + barWidth, y1),
                        ramp(1.0f - (k + 0.5f) / kSteps));
  }
  draw->AddRect(at, ImVec2(at.x + barWidth, at.y + height), IM_COL32(150, 155, 170, 255));
  ElementType shown = element.kind == ElementType::Kind::Float
                          ? element
                          : elementTypeNamed("f64");
  const double marks[3] = {hi, (lo + hi) / 2, lo};
  for (int k = 0; k < 3; ++k) {
    float y = at.y + height * k / 2;
    std::string label = number(marks[k], k == 1 ? shown : element);
    draw->AddLine(ImVec2(at.x + barWidth, y), ImVec2(at.x + barWidth + font * 0.3f, y),
                  IM_COL32(150, 155, 170, 255));
    draw->AddText(ImVec2(at.x + barWidth + font * 0.4f,
                         std::clamp(y - font / 2, at.y - font / 2, at.y + height - font / 2)),
                  IM_COL32(200, 205, 215, 255), label.c_str());
  }
}
} // namespace

void inspect(StudioView::State &state, uint64_t id, bool input, int index) {
  state.inspectLaunch = id;
  state.inspectInput = input;
  state.inspectIndex = index;
  state.inspectSlice.clear();
}

namespace {
/// The matrix the inspector shows: the last two dimensions of a buffer at
/// `offset` (a row for rank 1).
struct ValueSlice {
  const MemRefData &data;
  const ElementType &element;
  int64_t offset = 0, rows = 1, cols = 1;
  double at(int64_t i, int64_t j) const {
    return valueAt(data, element, offset + i * cols + j);
  }
};

/// The type, the shape, "Copy as JSON" and the min, max, mean and NaN count.
void drawValueSummary(StudioView::State &state, const ShapedArg &type, const MemRefData &data,
                      const ValueStats &stats) {
  const ElementType &element = type.element;
  char summary[256];
  std::snprintf(summary, sizeof(summary), "%s, shape %s, min %s max %s mean %.6g, %zu NaN",
                type.type.empty() ? "?" : type.type.c_str(), formatShape(data.sizes).c_str(),
                number(stats.min, element).c_str(), number(stats.max, element).c_str(),
                stats.mean, stats.nans);
  state.inspectSummary = summary;
  ImGui::TextColored(colors::accent(), "%s", type.type.c_str());
  ImGui::SameLine();
  ImGui::Text("shape %s", formatShape(data.sizes).c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("Copy as JSON"))
    ImGui::SetClipboardText(valuesJson(data, element).c_str());
  state.probe("copy-json");
  if (ImGui::BeginTable("##stats", 4, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableNextRow();
    const char *names[4] = {"min", "max", "mean", "NaN"};
    std::string values[4] = {number(stats.min, element), number(stats.max, element),
                             number(stats.mean, elementTypeNamed("f64")),
                             std::to_string(stats.nans)};
    for (int c = 0; c < 4; ++c) {
      ImGui::TableSetColumnIndex(c);
      ImGui::TextColored(colors::dim(), "%s", names[c]);
      ImGui::SameLine();
      ImGui::TextColored(c == 3 && stats.nans ? colors::error() : ImVec4(1, 1, 1, 1), "%s",
                         values[c].c_str());
    }
    ImGui::EndTable();
  }
}

/// Higher ranks: a slider for each leading index; the last two dimensions
/// are shown. The slice they pick.
ValueSlice pickSlice(StudioView::State &state, const MemRefData &data,
                     const ElementType &element) {
  size_t rank = data.sizes.size();
  ValueSlice slice{data, element};
  size_t leading = rank > 2 ? rank - 2 : 0;
  state.inspectSlice.resize(leading, 0);
  int64_t stride = 1;
  for (size_t d = leading; d < rank; ++d)
    stride *= data.sizes[d];
  for (size_t d = 0; d < leading; ++d) {
    ImGui::PushID(static_cast<int>(d));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    int max = static_cast<int>(std::max<int64_t>(data.sizes[d] - 1, 0));
    ImGui::SliderInt("##slice", &state.inspectSlice[d], 0, max, "dim %d: %%d");
    ImGui::SameLine();
    ImGui::PopID();
  }
  if (leading) {
    int64_t flat = 0;
    for (size_t d = 0; d < leading; ++d)
      flat = flat * data.sizes[d] + state.inspectSlice[d];
    slice.offset = flat * stride;
    ImGui::TextColored(colors::dim(), "slice");
  }
  slice.rows = rank == 1 ? 1 : data.sizes[rank - 2];
  slice.cols = data.sizes[rank - 1];
  return slice;
}

/// The heatmap: one cell per element, as large as fits beside its scale;
/// the element under the mouse in a tooltip.
void drawHeatmap(StudioView::State &state, const ValueSlice &slice, const ValueStats &stats) {
  const ElementType &element = slice.element;
  int64_t rows = slice.rows, cols = slice.cols;
  float scaleWidth = ImGui::GetFontSize() * 1.3f +
                     std::max(ImGui::CalcTextSize(number(stats.min, element).c_str()).x,
                              ImGui::CalcTextSize(number(stats.max, element).c_str()).x) +
                     ImGui::GetFontSize() * 2;
  float availW = std::max(ImGui::GetContentRegionAvail().x - scaleWidth, ImGui::GetFontSize());
  float availH = std::max(ImGui::GetFontSize() * 6, ImGui::GetContentRegionAvail().y * 0.5f);
  float cell = std::clamp(std::min(availW / static_cast<float>(cols),
                                   availH / static_cast<float>(rows)),
                          1.0f, ImGui::GetFontSize() * 4);
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList *draw = ImGui::GetWindowDrawList();
  double span = stats.max - stats.min;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      double v = slice.at(i, j);
      ImU32 color = std::isnan(v) ? IM_COL32(255, 0, 255, 255)
                                  : ramp(span > 0 ? static_cast<float>((v - stats.min) / span)
                                                  : 0.5f);
      ImVec2 a(origin.x + j * cell, origin.y + i * cell);
      draw->AddRectFilled(a, ImVec2(a.x + cell - (cell > 4 ? 1 : 0),
                                    a.y + cell - (cell > 4 ? 1 : 0)),
                          color);
      if (cell >= ImGui::GetFontSize() * 2.2f) {
        std::string text = number(v, element);
        ImVec2 size = ImGui::CalcTextSize(text.c_str());
        if (size.x < cell - 2)
          draw->AddText(ImVec2(a.x + (cell - size.x) / 2, a.y + (cell - size.y) / 2),
                        v - stats.min > span * 0.6 ? IM_COL32(20, 20, 30, 255)
                                                   : IM_COL32(240, 240, 240, 255),
                        text.c_str());
      }
    }
  colourScale(ImVec2(origin.x + cell * cols + ImGui::GetFontSize() * 0.8f, origin.y),
              std::max(cell * rows, ImGui::GetFontSize() * 3), stats.min, stats.max, element);
  ImGui::InvisibleButton("##heatmap",
                         ImVec2(cell * cols, std::max(cell * rows, ImGui::GetFontSize() * 3)));
  state.probe("heatmap");
  if (ImGui::IsItemHovered()) {
    ImVec2 m = ImGui::GetIO().MousePos;
    int64_t j = static_cast<int64_t>((m.x - origin.x) / cell);
    int64_t i = static_cast<int64_t>((m.y - origin.y) / cell);
    if (i >= 0 && i < rows && j >= 0 && j < cols) {
      char hover[128];
      std::snprintf(hover, sizeof(hover), "[%lld, %lld] = %s", static_cast<long long>(i),
                    static_cast<long long>(j), number(slice.at(i, j), element).c_str());
      state.inspectHover = hover;
      ImGui::SetTooltip("%s", hover);
    }
  }
}

/// The table: rows x columns (Dear ImGui tables take up to 64 columns).
void drawValueTable(const ValueSlice &slice) {
  int64_t cols = slice.cols;
  int64_t shownCols = std::min<int64_t>(cols, 63);
  if (shownCols < cols)
    ImGui::TextColored(colors::dim(), "first %lld of %lld columns (copy as JSON for all)",
                       static_cast<long long>(shownCols), static_cast<long long>(cols));
  if (ImGui::BeginTable("##values", static_cast<int>(shownCols) + 1,
                        ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("");
    for (int64_t j = 0; j < shownCols; ++j)
      ImGui::TableSetupColumn(std::to_string(j).c_str());
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(slice.rows));
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(colors::dim(), "%d", i);
        for (int64_t j = 0; j < shownCols; ++j) {
          ImGui::TableSetColumnIndex(static_cast<int>(j) + 1);
          ImGui::TextUnformatted(number(slice.at(i, j), slice.element).c_str());
        }
      }
    ImGui::EndTable();
  }
}
} // namespace

void drawInspector(Studio &studio, StudioView::State &state) {
  if (state.inspectLaunch == 0)
    return;
  const LaunchRecord *r = studio.executor().findLaunch(state.inspectLaunch);
  const std::vector<MemRefData> *buffers =
      r ? (state.inspectInput ? &r->inputs : &r->results) : nullptr;
  const std::vector<ShapedArg> *types =
      r ? (state.inspectInput ? &r->inputTypes : &r->resultTypes) : nullptr;
  if (!buffers || state.inspectIndex >= static_cast<int>(buffers->size())) {
    state.inspectLaunch = 0;
    state.inspectSummary.clear();
    return;
  }
  const MemRefData &data = (*buffers)[state.inspectIndex];
  ShapedArg type = state.inspectIndex < static_cast<int>(types->size())
                       ? (*types)[state.inspectIndex]
                       : ShapedArg();
  const ElementType &element = type.element;

  char title[160];
  std::snprintf(title, sizeof(title), "Inspector: #%llu %s %s %d",
                static_cast<unsigned long long>(r->id), r->label.c_str(),
                state.inspectInput ? "input" : "result", state.inspectIndex);
  bool open = !panelHeader(state, "inspector", title);
  state.probe("inspector");
  state.inspectMin = ImGui::GetWindowPos();
  state.inspectMax = ImVec2(state.inspectMin.x + ImGui::GetWindowWidth(),
                            state.inspectMin.y + ImGui::GetWindowHeight());
  state.inspectHover.clear();
  ValueStats stats = valueStats(data, element);
  drawValueSummary(state, type, data, stats);

  if (data.sizes.empty()) {
    ImGui::Text("value %s", number(valueAt(data, element, 0), element).c_str());
    if (!open)
      state.inspectLaunch = 0;
    return;
  }
  ValueSlice slice = pickSlice(state, data, element);
  if (data.sizes.size() == 1) {
    std::vector<double> line(static_cast<size_t>(slice.cols));
    for (int64_t j = 0; j < slice.cols; ++j)
      line[j] = slice.at(0, j);
    linePlot(state, line, stats.min, stats.max, element);
  } else {
    drawHeatmap(state, slice, stats);
  }
  drawValueTable(slice);
  if (!open) {
    state.inspectLaunch = 0;
    state.inspectSummary.clear();
  }
}

void openOpHistory(Studio &studio, StudioView::State &state,
                   std::vector<SourceLocation> locations, std::string label) {
  PipelineModel &m = studio.passes();
  state.history = m.opHistory(locations);
  state.historyLocations = std::move(locations);
  // The IR view shows where the op is in the snapshot selected now.
  for (const PipelineModel::HistoryStep &step : state.history)
    if (step.position == m.selected() && !step.lines.empty())
      if (std::optional<size_t> row = m.rowOfRightLine(step.lines.front()))
        m.requestScroll(*row);
  size_t start = label.find_first_not_of(' ');
  state.historyLabel = start == std::string::npos ? label : label.substr(start);
}

namespace {
/// A target's row above its own steps, as in the pass list (not a step:
/// no click).
void drawHistoryGroup(PipelineModel &m, StudioView::State &state, int group) {
  StepLabel parts = m.groupLabel(group);
  parts.prefix = "  ";
  float room = ImGui::GetContentRegionAvail().x;
  std::string label = fitLabel(parts, room);
  ImGui::TextColored(colors::dim(), "%s", label.c_str());
  state.probeText("history-group-" + std::to_string(group), label, room);
}

/// A snapshot of the history by its name (a target's own step by its own
/// name under its target's row, `asm`), fitted to its column; the full name
/// in a tooltip; a click selects it.
void drawHistoryStep(PipelineModel &m, StudioView::State &state,
                     const PipelineModel::HistoryStep &step, size_t i) {
  StepLabel parts;
  parts.prefix = m.isNested(step.position) ? "    " : "";
  parts.name = m.stepName(step.position);
  float room = ImGui::GetContentRegionAvail().x;
  std::string label = fitLabel(parts, room);
  if (ImGui::Selectable(label.c_str(), step.position == m.selected(),
                        ImGuiSelectableFlags_SpanAllColumns) &&
      step.position != kInputPosition) {
    m.select(step.position);
    if (!step.lines.empty())
      if (std::optional<size_t> row = m.rowOfRightLine(step.lines.front()))
        m.requestScroll(*row);
  }
  state.probeText("history-" + std::to_string(i), label, room);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", m.positionName(step.position).c_str());
}

/// The op's lines in a snapshot, as many as fit and how many more.
void drawHistoryLines(const PipelineModel::HistoryStep &step) {
  if (step.lines.empty()) {
    ImGui::TextColored(colors::dim(), "gone");
    return;
  }
  float room = ImGui::GetContentRegionAvail().x;
  size_t count = step.lines.size();
  std::string list = std::to_string(step.lines[0]), all = list;
  for (size_t k = 1; k < count; ++k)
    all += ", " + std::to_string(step.lines[k]);
  size_t shown = 1;
  for (; shown < count; ++shown) {
    std::string longer = list + ", " + std::to_string(step.lines[shown]);
    std::string more = shown + 1 < count ? " +" + std::to_string(count - shown - 1) : "";
    if (ImGui::CalcTextSize((longer + more).c_str()).x > room)
      break;
    list = std::move(longer);
  }
  if (shown < count)
    list += " +" + std::to_string(count - shown);
  ImGui::TextUnformatted(list.c_str());
  if (shown < step.lines.size() && ImGui::IsItemHovered())
    ImGui::SetTooltip("lines %s", all.c_str());
}
} // namespace

void drawOpHistory(Studio &studio, StudioView::State &state) {
  if (state.historyLocations.empty())
    return;
  PipelineModel &m = studio.passes();
  // Docked under the pass list: the IR view, where the op's lines are
  // marked, stays in sight.
  bool open = !panelHeader(state, "op-history", "Op history");
  state.probe("op-history");
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(colors::accent(), "%s", state.historyLabel.c_str());
  ImGui::PopTextWrapPos();
  for (const SourceLocation &loc : state.historyLocations)
    ImGui::TextColored(colors::dim(), "%s:%u:%u", loc.file.c_str(), loc.line, loc.column);
  ImGui::TextColored(colors::dim(), "marked in the IR view; a click shows the step");
  if (ImGui::BeginTable("##history", 2,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("snapshot", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("lines", ImGuiTableColumnFlags_WidthFixed, characterWidth() * 9);
    ImGui::TableHeadersRow();
    int group = -1;
    for (size_t i = 0; i < state.history.size(); ++i) {
      const PipelineModel::HistoryStep &step = state.history[i];
      if (int g = m.groupOf(step.position); g != group) {
        group = g;
        if (g >= 0) {
          ImGui::TableNextRow();
          ImGui::TableSetColumnIndex(0);
          drawHistoryGroup(m, state, g);
        }
      }
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(static_cast<int>(i));
      drawHistoryStep(m, state, step, i);
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      drawHistoryLines(step);
    }
    ImGui::EndTable();
  }
  if (!open) {
    state.historyLocations.clear();
    state.history.clear();
  }
}

} // namespace executor_studio::gui
